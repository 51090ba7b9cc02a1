import Foundation
import StoreEngine

/// What StoreKit 2's queries return, as pure functions of an account's history and subscription
/// records. StoreKit 2 has no restored transactions, so the `restored` copies a StoreKit 1 restore
/// adds to the history are never part of an answer, nor are failed, deferred or pending ones.
public enum StoreKit2Queries {
  /// `Transaction.currentEntitlements`
  /// (https://developer.apple.com/documentation/storekit/transaction/currententitlements): the
  /// transaction of each non-consumable (the original purchase), the latest transaction of each
  /// non-renewing subscription (finished or not; StoreKit does not expire them), and the latest
  /// transaction of each auto-renewable subscription whose status is `subscribed` or
  /// `inGracePeriod`. No consumables; nothing refunded or upgraded. Oldest first.
  ///
  /// - Complexity: O(n) in the history.
  public static func currentEntitlements(
    history: [PaymentTransaction], subscriptions: [SubscriptionRecord]
  ) -> [PaymentTransaction] {
    var byProduct: [Product.ID: PaymentTransaction] = [:]
    var latestOfChain: [PaymentTransaction.ID: PaymentTransaction] = [:]
    for transaction in history where transaction.state == .purchased && transaction.revocationDate == nil && !transaction.isUpgraded {
      switch transaction.productKind {
      case .consumable: continue
      case .nonConsumable:
        // The original purchase (a re-download is no transaction in StoreKit 2; B23: its refund
        // takes the product back, whatever copies the chain has).
        if transaction.id == transaction.originalID, byProduct[transaction.productID] == nil {
          byProduct[transaction.productID] = transaction
        }
      case .nonRenewingSubscription: byProduct[transaction.productID] = later(byProduct[transaction.productID], transaction)
      case .autoRenewableSubscription:
        latestOfChain[transaction.originalID] = later(latestOfChain[transaction.originalID], transaction)
      }
    }
    let entitled = subscriptions.filter { $0.status == .subscribed || $0.status == .inGracePeriod }
    let subscribed = entitled.compactMap { latestOfChain[$0.originalID] }
    // §47: a bundle's component chains have no record: they entitle while the bundle's does.
    // A component entitles only with the bundle chain's current period: after a change of plan
    // between two bundles of one group, a product only the old bundle included is no longer one.
    let entitledBundles = Set(entitled.map(\.originalID))
    let components = latestOfChain.values.filter { component in
      guard let bundle = component.bundleOriginalID, entitledBundles.contains(bundle) else { return false }
      return latestOfChain[bundle]?.id == component.bundle?.transactionID
    }
    return (Array(byProduct.values) + subscribed + components).sorted { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
  }

  /// `Transaction.unfinished`: the unfinished transactions StoreKit 2 has (purchased ones).
  public static func unfinished(_ unfinished: [PaymentTransaction]) -> [PaymentTransaction] {
    unfinished.filter { $0.state == .purchased }
  }

  /// `Transaction.latest(for:)`: the product's newest purchased transaction, refunded or not; for
  /// a non-consumable its original purchase (a re-download is no new transaction in StoreKit 2).
  public static func latest(for product: Product.ID, history: [PaymentTransaction]) -> PaymentTransaction? {
    let purchased = history.filter { $0.productID == product && $0.state == .purchased }
    if purchased.first?.productKind == .nonConsumable {
      return purchased.last(where: { $0.id == $0.originalID }) ?? purchased.last
    }
    return purchased.reduce(nil) { later($0, $1) }
  }

  /// `Product.SubscriptionInfo.status` of `group`: each subscription chain's record with the
  /// chain's latest purchased transaction.
  public static func statuses(
    group: String, history: [PaymentTransaction], subscriptions: [SubscriptionRecord]
  ) -> [(record: SubscriptionRecord, transaction: PaymentTransaction?)] {
    subscriptions.filter { $0.groupID == group }.map { record in
      let chain = history.filter { $0.originalID == record.originalID && $0.state == .purchased }
      return (record, chain.reduce(nil) { later($0, $1) })
    } + bundleStatuses(group: group, history: history, subscriptions: subscriptions)
  }

  /// §47: a live bundle (or suite) that includes a subscription of `group` is a status of that
  /// group too: the bundle's record (its state and renewal info) with the included subscription's
  /// newest component transaction. An ended bundle is not listed there.
  static func bundleStatuses(
    group: String, history: [PaymentTransaction], subscriptions: [SubscriptionRecord]
  ) -> [(record: SubscriptionRecord, transaction: PaymentTransaction?)] {
    let live = subscriptions.filter { $0.groupID != group && $0.status != .expired && $0.status != .revoked }
    guard !live.isEmpty else { return [] }
    let liveIDs = Set(live.map(\.originalID))
    var newest: [PaymentTransaction.ID: PaymentTransaction] = [:]
    var period: [PaymentTransaction.ID: PaymentTransaction] = [:]
    for transaction in history where transaction.state == .purchased {
      if liveIDs.contains(transaction.originalID), !transaction.isUpgraded {
        period[transaction.originalID] = later(period[transaction.originalID], transaction)
      }
      guard transaction.subscriptionGroupID == group, let bundle = transaction.bundleOriginalID else { continue }
      newest[bundle] = later(newest[bundle], transaction)
    }
    // Only a bundle whose current period includes the subscription: after a change of plan between
    // two bundles, the one before it no longer lists a product the new one leaves out.
    return live.compactMap { record in
      guard let component = newest[record.originalID], component.bundle?.transactionID == period[record.originalID]?.id else { return nil }
      return (record, component)
    }
  }

  /// The later of two transactions (by purchase date, then id).
  private static func later(_ current: PaymentTransaction?, _ candidate: PaymentTransaction) -> PaymentTransaction {
    guard let current else { return candidate }
    return (candidate.purchaseDate, candidate.id) >= (current.purchaseDate, current.id) ? candidate : current
  }
}
