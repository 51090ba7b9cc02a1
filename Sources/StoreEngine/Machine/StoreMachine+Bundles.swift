import Foundation

/// Subscription bundles and suites (format 6.x, iOS 27; DECISIONS §47). A bundle or suite is sold
/// and renewed as one auto-renewable subscription of its own group; each of its purchases and
/// renewals comes with one component transaction per included subscription (price 0, same period),
/// carrying the `bundle…` values. Components have no renewal record of their own: they live and end
/// with the bundle's record.
extension StoreMachine {
  /// Before a purchase of `product` is stored: the switch between a standalone subscription and a
  /// bundle that includes it. Buying a bundle revokes each active standalone subscription it
  /// includes (`upgradedToBundle`) and links the bundle's transaction to it; buying a standalone
  /// subscription a bundle of the account includes ends that bundle now and links the standalone
  /// transaction to it (`previousOriginalTransactionID` both ways).
  ///
  /// Returns the events to announce after the purchase and, by included product, the standalone
  /// chains the bundle replaced (for its component transactions).
  mutating func switchForBundles(
    _ transaction: inout PaymentTransaction, product: Product
  ) throws(EngineError) -> (events: [StoreEvent], replaced: [Product.ID: PaymentTransaction.ID]) {
    guard transaction.state == .purchased, product.kind == .autoRenewableSubscription, let info = product.subscription else { return ([], [:]) }
    var events: [StoreEvent] = []
    var replacedChains: [Product.ID: PaymentTransaction.ID] = [:]
    if !info.bundledSubscriptions.isEmpty {
      let included = Set(info.bundledSubscriptions.map(\.productID))
      let replaced = subscriptionRecords.values.filter {
        $0.account == transaction.account && included.contains($0.productID) && $0.originalID != transaction.originalID
          && ($0.status == .subscribed || $0.status == .inGracePeriod || $0.status == .inBillingRetry)
          && (catalog.product($0.productID)?.subscription?.bundledSubscriptions.isEmpty ?? true)
      }.sorted { $0.originalID < $1.originalID }
      for var record in replaced {
        if var current = currentTransaction(of: record) {
          current.revocationDate = now
          current.revocationReason = PaymentTransaction.upgradedToBundleRevocationReason
          current.signedTransaction = nil
          events.append(.transactionRevoked(try put(current)))
        }
        record.status = .revoked
        record.autoRenew = false
        record.expirationIntent = .customerCancelled
        events.append(.subscriptionChanged(try put(record), reason: "switched to bundle \(product.id)"))
        replacedChains[record.productID] = record.originalID
      }
      if let first = replaced.first {
        transaction.bundle = BundleLink(previousOriginalID: first.originalID)
      }
    } else {
      // A standalone subscription: does an active bundle of the account include it?
      let bundles = subscriptionRecords.values.filter { record in
        record.account == transaction.account && record.status != .expired && record.status != .revoked
          && (catalog.product(record.productID)?.subscription?.bundledSubscriptions.contains { $0.productID == product.id } ?? false)
      }.sorted { $0.originalID < $1.originalID }
      for var record in bundles {
        if var current = currentTransaction(of: record), let expires = current.expiresDate, expires > now {
          current.expiresDate = now
          current.signedTransaction = nil
          var cut = [try put(current)]
          for var component in currentComponents(of: record.originalID) where (component.expiresDate ?? now) > now {
            component.expiresDate = now
            component.signedTransaction = nil
            cut.append(try put(component))
          }
          events.append(.transactionsAmended(cut))
        }
        record.status = .expired
        record.autoRenew = false
        record.expirationIntent = .customerCancelled
        record.expiresDate = now
        events.append(.subscriptionChanged(try put(record), reason: "switched to standalone \(product.id)"))
      }
      if let first = bundles.first {
        transaction.bundle = BundleLink(previousOriginalID: first.originalID)
      }
    }
    return (events, replacedChains)
  }

  /// After a bundle's (or suite's) purchase or renewal `bundle` is stored: its component
  /// transactions, stored, one per included subscription. None for other products. `replaced`: the
  /// standalone chains a purchase switched from, by product (``switchForBundles(_:product:)``).
  mutating func deliverComponents(
    of bundle: PaymentTransaction, product: Product, replaced: [Product.ID: PaymentTransaction.ID] = [:]
  ) throws(EngineError) -> [PaymentTransaction] {
    guard bundle.state == .purchased, let info = product.subscription, !info.bundledSubscriptions.isEmpty else { return [] }
    var made: [PaymentTransaction] = []
    let existing = currentComponents(of: bundle.originalID, includingFirst: true)
    for included in info.bundledSubscriptions {
      // Each included subscription keeps one chain for the life of the bundle's chain.
      let chain = existing.filter { $0.productID == included.productID }.min { $0.id < $1.id }
      var component = PaymentTransaction(
        id: try makeTransactionID(), originalID: chain?.originalID, account: bundle.account, productID: included.productID,
        productKind: .autoRenewableSubscription, state: .purchased, purchaseDate: bundle.purchaseDate,
        originalPurchaseDate: chain?.originalPurchaseDate, expiresDate: bundle.expiresDate, price: 0,
        currency: bundle.currency, storefront: bundle.storefront, reason: bundle.reason)
      component.subscriptionGroupID =
        included.groupID.isEmpty ? catalog.product(included.productID)?.subscription?.groupID ?? info.groupID : included.groupID
      component.webOrderLineItemID = makeLineItemID()
      component.appAccountToken = bundle.appAccountToken
      component.appBundleID = bundle.appBundleID
      component.bundle = BundleLink(
        productID: product.id, transactionID: bundle.id, originalTransactionID: bundle.originalID,
        subscriptionGroupID: info.groupID,
        previousOriginalID: replaced[included.productID])
      made.append(try put(component))
    }
    return made
  }

  /// When a bundle's transaction is refunded: the component transactions that came with it are
  /// revoked with it (same date and reason), each announced as StoreKit announces a revocation.
  mutating func revokeComponents(of bundle: PaymentTransaction) throws(EngineError) -> [StoreEvent] {
    guard bundle.revocationDate != nil else { return [] }
    let components = transactions.values.filter { $0.bundle?.transactionID == bundle.id && $0.revocationDate == nil }
    var events: [StoreEvent] = []
    for var component in components.sorted(by: { $0.id < $1.id }) {
      component.revocationDate = bundle.revocationDate
      component.revocationReason = bundle.revocationReason
      component.signedTransaction = nil
      events.append(.transactionRevoked(try put(component)))
    }
    return events
  }

  /// The working set's component transactions of the bundle chain `bundleOriginal`: each included
  /// subscription's current period (and, with `includingFirst`, every one the working set holds).
  func currentComponents(of bundleOriginal: PaymentTransaction.ID, includingFirst: Bool = false) -> [PaymentTransaction] {
    let all = transactions.values.filter { $0.bundle?.originalTransactionID == bundleOriginal }
    if includingFirst { return all }
    var latest: [Product.ID: PaymentTransaction] = [:]
    for component in all where component.state == .purchased {
      if let held = latest[component.productID], (held.purchaseDate, held.id) > (component.purchaseDate, component.id) { continue }
      latest[component.productID] = component
    }
    return latest.values.sorted { $0.id < $1.id }
  }

  /// How many component transactions each renewal of `productID` makes (zero but for bundles and
  /// suites): the shell reserves ids for them too.
  func componentsPerRenewal(of productID: Product.ID) -> Int {
    catalog.product(productID)?.subscription?.bundledSubscriptions.count ?? 0
  }
}
