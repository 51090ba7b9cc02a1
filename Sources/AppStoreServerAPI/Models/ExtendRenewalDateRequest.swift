/// The body of Extend a Subscription Renewal Date, every member as sent, checked by the handler.
struct ExtendRenewalDateRequest: Decodable {
  var extendByDays: JSONScalar?
  var extendReasonCode: JSONScalar?
  var requestIdentifier: JSONScalar?
}
