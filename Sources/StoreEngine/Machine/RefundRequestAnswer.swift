/// How the customer and the store answer the app's refund sheet (`Transaction.beginRefundRequest`).
public enum RefundRequestAnswer: String, Sendable, Equatable, CaseIterable {
  /// The customer submits the request and the store grants it: the sheet returns `.success`, then
  /// the refund arrives (`transactionRevoked`), as Xcode's Transaction Manager always approves.
  case approve
  /// The customer submits the request and the store turns it down: `.success` and nothing else
  /// (the app hears of a decline only from the server's `REFUND_DECLINED` notification).
  case decline
  /// The customer closes the sheet: `.userCancelled`.
  case cancel
}
