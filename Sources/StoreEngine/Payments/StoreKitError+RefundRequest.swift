extension StoreKitError {
  /// The domain of `Transaction.RefundRequestError`, which only the app's refund sheet throws.
  public static let refundRequestErrorDomain = "StoreKit.Transaction.RefundRequestError"

  /// `Transaction.RefundRequestError.duplicateRequest`: a request for this transaction is open.
  public static let duplicateRefundRequest = StoreKitError(code: 0, domain: refundRequestErrorDomain)
  /// `Transaction.RefundRequestError.failed`.
  public static let refundRequestFailed = StoreKitError(code: 1, domain: refundRequestErrorDomain)

  /// `Transaction.RefundRequestError` case names by code.
  public static let refundRequestNames: [Int: String] = [0: "duplicateRequest", 1: "failed"]

  /// Parses a `Transaction.RefundRequestError` case name: `duplicateRequest` or `failed`.
  public init?(refundRequestName text: String) {
    guard let match = Self.refundRequestNames.first(where: { $0.value == text }) else { return nil }
    self.init(code: match.key, domain: Self.refundRequestErrorDomain)
  }
}
