/// The body of Extend Subscription Renewal Dates for All Active Subscribers, as sent.
struct MassExtendRenewalDateRequest: Decodable {
  var extendByDays: JSONScalar?
  var extendReasonCode: JSONScalar?
  var requestIdentifier: JSONScalar?
  var productId: JSONScalar?
  /// Decoded as sent: a list of anything, so a non-string member is the invalid-code error, not a 400.
  var storefrontCountryCodes: [JSONScalar]?
}
