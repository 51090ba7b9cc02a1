import StoreEngine

extension EventRecord {
  /// `refundRequest`: what the app's refund sheet (`Transaction.beginRefundRequest`) returned:
  /// `result` is `success` or `userCancelled`, or `failed` with the `error` it threw. (B10)
  struct RefundRequest: Sendable, Equatable, Codable {
    var transactionID: String
    var result: String
    var error: ErrorObject?

    enum CodingKeys: String, CodingKey {
      case transactionID = "transactionId"
      case result, error
    }

    init(_ id: PaymentTransaction.ID, _ outcome: RefundRequestResult) {
      transactionID = id.description
      switch outcome {
      case .success: result = "success"
      case .userCancelled: result = "userCancelled"
      case .failed(let failure):
        result = "failed"
        error = ErrorObject(failure)
      }
    }
  }
}
