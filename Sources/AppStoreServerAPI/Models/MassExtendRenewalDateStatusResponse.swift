/// Get Status of Subscription Renewal Date Extensions' answer.
struct MassExtendRenewalDateStatusResponse: Encodable {
  var requestIdentifier: String
  var complete: Bool
  /// When it completed (ms); left out until then.
  var completeDate: Int64?
  var succeededCount: Int64
  var failedCount: Int64
}
