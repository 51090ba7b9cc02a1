/// One subscription chain's status and its latest signed transaction and renewal info.
struct LastTransactionsItem: Encodable {
  /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
  var status: Int
  var originalTransactionId: String
  var signedTransactionInfo: String
  var signedRenewalInfo: String?
}
