import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `GET /inApps/v1/subscriptions/{anyTransactionId}`: each group's chains with their status, latest
  /// transaction and renewal info as last signed; `status` (repeatable) keeps only those statuses.
  func subscriptionStatuses(_ text: String, query: QueryParameters) throws(APIError) -> APIResponse {
    _ = try LedgerReader.parseID(text)
    var wanted: Set<Int> = []
    for value in query.values("status") {
      guard let status = Int(value), (1...5).contains(status), value.first != "+" else { throw .invalidStatus }
      wanted.insert(status)
    }
    let customer = try reader.customer(text)
    let latest = try overHistory(of: customer.account) { (rows) throws(APIError) in
      var latest: [PaymentTransaction.ID: SignedTransaction] = [:]
      for signed in rows where signed.row.productKind == .autoRenewableSubscription {
        if let current = latest[signed.row.originalID],
          (current.row.purchaseDate, current.row.id) > (signed.row.purchaseDate, signed.row.id)
        { continue }
        latest[signed.row.originalID] = signed
      }
      return (latest, Array(latest.values))
    }
    var groups: [String: [LastTransactionsItem]] = [:]
    for record in try reader.subscriptions(of: customer.account).sorted(by: { $0.originalID < $1.originalID }) {
      // A chain signed for the other environment has no transaction here, so it is not listed.
      guard let transaction = latest[record.originalID] else { continue }
      let status = record.status.appleStatus
      guard wanted.isEmpty || wanted.contains(status) else { continue }
      groups[record.groupID, default: []].append(
        LastTransactionsItem(
          status: status, originalTransactionId: record.originalID.description, signedTransactionInfo: transaction.jws,
          signedRenewalInfo: record.signedRenewalInfo ?? transaction.row.signedRenewalInfo))
    }
    let data = groups.keys.sorted().map {
      SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: $0, lastTransactions: groups[$0] ?? [])
    }
    return try ResponseEncoding.response(
      StatusResponse(environment: environment.payloadName, bundleId: bundleID, appAppleId: appAppleID, data: data))
  }
}
