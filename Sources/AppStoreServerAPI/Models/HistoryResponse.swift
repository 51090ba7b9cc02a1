/// Get Transaction History's answer: up to 20 JWS and the revision of the next page.
struct HistoryResponse: Encodable {
  var revision: String
  var hasMore: Bool
  var bundleId: String
  /// Left out when the server has no app Apple id (Apple sends none in the sandbox).
  var appAppleId: Int64?
  var environment: String
  var signedTransactions: [String]
}
