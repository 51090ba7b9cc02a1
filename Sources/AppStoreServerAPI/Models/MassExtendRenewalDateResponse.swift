/// Extend for All Subscribers' answer: the request it accepted.
struct MassExtendRenewalDateResponse: Encodable {
  var requestIdentifier: String
}
