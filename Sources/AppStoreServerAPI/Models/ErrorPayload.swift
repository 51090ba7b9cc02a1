/// Apple's error body: `{"errorCode": 4040010, "errorMessage": "Transaction id not found."}`.
struct ErrorPayload: Encodable {
  var errorCode: Int64
  var errorMessage: String
}
