/// Get Refund History V1's answer: up to 50 refunded transactions' JWS.
struct RefundLookupResponse: Encodable {
  var signedTransactions: [String]
}
