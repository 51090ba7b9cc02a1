import Foundation

/// The answer to a products request (`SKProductsResponse`).
public struct ProductsResponse: Sendable, Equatable {
  public var products: [Product]
  public var invalidProductIdentifiers: [String]
}

extension PaymentQueue {
  public var catalog: Catalog { machine.catalog }
  /// The sandbox switches, seeded from the catalog's settings and changed at run time.
  public var controls: SandboxControls { machine.controls }
  /// The virtual clock.
  public var now: Date { machine.now }
  /// The app's bundle id (signed into payloads and promotional-offer signatures).
  public var bundleID: String { machine.environment.bundleID }
  /// The time rate in force.
  public var timeRate: TimeRate { machine.timeRate }
  /// The signed-in sandbox account, if any.
  public var currentAccount: String? { machine.currentAccount }
  /// The sheet currently shown, if any.
  public var prompt: PurchasePrompt? { machine.prompt }
  /// The most recently created or changed transaction (`last` in scenarios).
  public var lastTransactionID: PaymentTransaction.ID? { machine.lastTransactionID }
  /// Known sandbox accounts, by name.
  public var accountNames: [String] { machine.accountNames }

  /// The unfinished transactions of the signed-in account, oldest first (`SKPaymentQueue.transactions`).
  public var unfinishedTransactions: [PaymentTransaction] { machine.unfinishedTransactions }

  /// Every transaction of `account` (default: the signed-in one), oldest first, from the ledger.
  public func history(account: String? = nil) throws(LedgerError) -> [PaymentTransaction] {
    guard let name = account ?? machine.currentAccount else { return [] }
    return try ledger.history(account: name)
  }

  /// A transaction by id: the store's working copy, or the ledger's.
  public func transaction(_ id: PaymentTransaction.ID) throws(LedgerError) -> PaymentTransaction? {
    if let known = machine.transaction(id) { return known }
    return try ledger.transactions([id]).first
  }

  /// What the account is entitled to now, derived from its whole history.
  public func entitlements(account: String? = nil) throws(LedgerError) -> Entitlements {
    var entitlements = Entitlements(history: try history(account: account), at: machine.now)
    // B39: a subscription in its billing grace period keeps full access until grace ends.
    for transaction in machine.gracePeriodTransactions(account: account ?? machine.currentAccount ?? "") {
      entitlements.owning[transaction.productID] = transaction
    }
    return entitlements
  }

  /// Renewal records of the account (default: signed-in), by original transaction id.
  public func subscriptions(account: String? = nil) -> [SubscriptionRecord] {
    machine.subscriptions(account: account)
  }

  /// Whether `account` may still use an introductory offer in `group` (once per group per account).
  public func isEligibleForIntroOffer(group: String, account: String) -> Bool {
    machine.isEligibleForIntroOffer(group: group, account: account)
  }
}

/// What an account owns at a moment, as a pure function of its transaction history.
public struct Entitlements: Sendable, Equatable {
  /// For each owned non-consumable or active subscription, the transaction granting it.
  public var owning: [Product.ID: PaymentTransaction]
  /// Consumable units bought (purchased, not refunded), by product.
  public var consumableCounts: [Product.ID: Int]

  public init(history: [PaymentTransaction], at now: Date) {
    var owning: [Product.ID: PaymentTransaction] = [:]
    var counts: [Product.ID: Int] = [:]
    for transaction in history
    where (transaction.state == .purchased || transaction.state == .restored) && transaction.revocationDate == nil {
      switch transaction.productKind {
      case .consumable:
        if transaction.state == .purchased { counts[transaction.productID, default: 0] += transaction.quantity }
      case .nonConsumable:
        if owning[transaction.productID] == nil { owning[transaction.productID] = transaction }
      case .nonRenewingSubscription:
        // B66: the latest transaction of a non-renewing subscription, as `currentEntitlements`.
        owning[transaction.productID] = transaction
      case .autoRenewableSubscription:
        // B44: an upgraded-from period no longer grants its product.
        if !transaction.isUpgraded, let expires = transaction.expiresDate, expires > now,
          (owning[transaction.productID]?.expiresDate ?? .distantPast) < expires
        {
          owning[transaction.productID] = transaction
        }
      }
    }
    self.owning = owning
    self.consumableCounts = counts
  }

  public func owns(_ product: Product.ID) -> Bool { owning[product] != nil }
}
