/// The body of Set App Account Token, as sent.
struct UpdateAppAccountTokenRequest: Decodable {
  var appAccountToken: JSONScalar?
}
