/// Get All Subscription Statuses' answer: the customer's subscriptions by group.
struct StatusResponse: Encodable {
  var environment: String
  var bundleId: String
  var appAppleId: Int64?
  var data: [SubscriptionGroupIdentifierItem]
}
