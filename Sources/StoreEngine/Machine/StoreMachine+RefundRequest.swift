extension StoreMachine {
  /// The app's refund sheet (`Transaction.beginRefundRequest`), as opposed to the tester's refund
  /// (``refund(_:reason:)``), which Xcode always grants. Only this sheet can fail: with the
  /// simulated "Refund Request Sheet" error, the app gets that error and nothing else happens.
  /// Otherwise the answer decides: `.userCancelled`, or `.success` followed by the refund when
  /// the store grants it.
  mutating func requestRefund(_ id: PaymentTransaction.ID, answer: RefundRequestAnswer, reason: Int) throws(EngineError) {
    guard let transaction = transactions[id] else { throw .unknownTransaction(id.description) }
    // A sheet for something not bought, or refunded already, is the app's mistake, as for `refund`.
    guard transaction.state == .purchased || transaction.state == .restored else {
      throw .cannotRefund(id, because: .notPurchased(transaction.state))
    }
    guard transaction.revocationDate == nil else { throw .cannotRefund(id, because: .alreadyRefunded) }
    if let failure = controls.failures[.refundRequest], roll(failure.chance) {
      step.emit(.refundRequestFinished(id, .failed(failure.error)))
      return
    }
    switch answer {
    case .cancel:
      step.emit(.refundRequestFinished(id, .userCancelled))
    case .decline:
      step.emit(.refundRequestFinished(id, .success))
      // Apple asks the app's server about consumption, then declines.
      notify(.consumptionRequest, about: id, consumptionRequestReason: Self.consumptionRequestReason(reason))
      notify(.refundDeclined, about: id)
    case .approve:
      step.emit(.refundRequestFinished(id, .success))
      notify(.consumptionRequest, about: id, consumptionRequestReason: Self.consumptionRequestReason(reason))
      try refund(id, reason: reason)
    }
  }

  /// The `consumptionRequestReason` of a refund request: the app's reason 1 (an issue with the app)
  /// is a fulfillment issue; otherwise the customer did not mean to buy.
  static func consumptionRequestReason(_ reason: Int) -> String {
    reason == 1 ? "FULFILLMENT_ISSUE" : "UNINTENDED_PURCHASE"
  }
}
