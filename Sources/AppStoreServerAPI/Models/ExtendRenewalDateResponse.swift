/// Extend a Subscription Renewal Date's answer: the chain and its new expiry.
struct ExtendRenewalDateResponse: Encodable {
  var originalTransactionId: String
  var webOrderLineItemId: String
  var success: Bool
  /// The new expiry (ms).
  var effectiveDate: Int64
}
