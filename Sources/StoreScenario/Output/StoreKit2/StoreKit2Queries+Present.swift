import Foundation
import StoreEngine

/// StoreKit 2's queries answered from the present: the payment queue's working set and records,
/// and the ledger only for one row it does not hold (a consumable's newest purchase, an ended
/// chain's last period). The history functions of ``StoreKit2Queries`` are the reference these are
/// checked against (`StoreKit2PresentTests`); they read the whole history.
extension StoreKit2Queries {
  /// `Transaction.currentEntitlements` of `account` (default: the signed-in one). Every row it can
  /// answer with is in the working set: non-consumable chains, non-renewing purchases and the
  /// current period of every subscription that has not ended.
  public static func currentEntitlements(of queue: PaymentQueue, account: String? = nil) -> [PaymentTransaction] {
    currentEntitlements(
      history: queue.presentTransactions(account: account), subscriptions: queue.subscriptions(account: account))
  }

  /// `Transaction.latest(for:)` of the signed-in account.
  public static func latest(for product: Product.ID, of queue: PaymentQueue) throws(LedgerError) -> PaymentTransaction? {
    if queue.catalog.product(product)?.kind == .nonConsumable {
      // Every non-consumable chain's original purchase is in the working set.
      let present = latest(for: product, history: queue.presentTransactions())
      if let present, present.id == present.originalID { return present }
    }
    return try queue.latestTransaction(matching: TransactionMatch(product: product, state: .purchased))
  }

  /// `Product.SubscriptionInfo.status` of `group` for the signed-in account: each chain's record
  /// with its newest purchased period (the working set's current period while the chain lives).
  public static func statuses(group: String, of queue: PaymentQueue) throws(LedgerError) -> [(record: SubscriptionRecord, transaction: PaymentTransaction?)] {
    let present = queue.presentTransactions()
    var answer: [(record: SubscriptionRecord, transaction: PaymentTransaction?)] = []
    for record in queue.subscriptions() where record.groupID == group {
      let ended = record.status == .expired || record.status == .revoked
      var latest = ended ? nil : present.filter { $0.originalID == record.originalID && $0.state == .purchased }.max { $1.isNewer(than: $0) }
      if latest == nil {
        latest = try queue.latestTransaction(matching: TransactionMatch(originalID: record.originalID, state: .purchased))
      }
      answer.append((record, latest))
    }
    return answer + bundleStatuses(group: group, history: present, subscriptions: queue.subscriptions())
  }
}
