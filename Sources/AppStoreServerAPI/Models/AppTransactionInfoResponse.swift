/// Get App Transaction Info's answer: a signed `JWSAppTransactionDecodedPayload`.
struct AppTransactionInfoResponse: Encodable {
  var signedAppTransactionInfo: String
}
