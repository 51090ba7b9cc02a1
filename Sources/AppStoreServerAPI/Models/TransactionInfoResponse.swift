/// Get Transaction Info's answer: the transaction's JWS as the ledger stores it.
struct TransactionInfoResponse: Encodable {
  var signedTransactionInfo: String
}
