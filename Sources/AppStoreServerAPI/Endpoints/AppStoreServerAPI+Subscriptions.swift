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
    // Only the chains asked for are read, and have their latest transaction read.
    let records = try reader.subscriptions(of: customer.account, appleStatuses: wanted)
    let latest = try latestTransactions(of: records, account: customer.account)
    var groups: [String: [LastTransactionsItem]] = [:]
    for record in records {
      // A chain signed for the other environment has no transaction here, so it is not listed.
      guard let transaction = latest[record.originalID] else { continue }
      let status = record.status.appleStatus
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

  /// Each chain's latest transaction as served (the newest by purchase date, then id): the one its
  /// record names, read by id. A record written before it named one, or naming a row since deleted,
  /// has its chain found by reading the history, a ledger page at a time.
  private func latestTransactions(
    of records: [SubscriptionRecord], account: String
  ) throws(APIError) -> [PaymentTransaction.ID: SignedTransaction] {
    var named: [PaymentTransaction.ID: PaymentTransaction.ID] = [:]
    for record in records { if let current = record.currentTransactionID { named[current] = record.originalID } }
    var latest: [PaymentTransaction.ID: SignedTransaction] = [:]
    var unnamed = Set(records.map(\.originalID))
    for row in try reader.rows(Array(named.keys)) where named[row.id] == row.originalID && row.state == .purchased {
      // Signed for another environment or app: the whole chain is, and it is not listed here.
      unnamed.remove(row.originalID)
      if let signed = reader.served(row), row.productKind == .autoRenewableSubscription { latest[row.originalID] = signed }
    }
    guard !unnamed.isEmpty else { return latest }
    try reader.walkHistory(of: account, from: .start(.history, descending: false)) { signed in
      let row = signed.row
      guard row.productKind == .autoRenewableSubscription, unnamed.contains(row.originalID) else { return true }
      if let current = latest[row.originalID], (current.row.purchaseDate, current.row.id) > (row.purchaseDate, row.id) {
        return true
      }
      latest[row.originalID] = signed
      return true
    }
    return latest
  }
}
