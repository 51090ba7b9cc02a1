/// Get Refund History's answer: up to 20 revoked transactions' JWS, oldest revocation first.
struct RefundHistoryResponse: Encodable {
  var signedTransactions: [String]
  var revision: String
  var hasMore: Bool
}
