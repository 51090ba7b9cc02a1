/// One subscription group of a ``StatusResponse``.
struct SubscriptionGroupIdentifierItem: Encodable {
  var subscriptionGroupIdentifier: String
  var lastTransactions: [LastTransactionsItem]
}
