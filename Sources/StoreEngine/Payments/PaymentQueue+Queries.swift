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

  /// What the account is entitled to now, from the present: the working set's non-consumable
  /// chains, current subscription periods and non-renewing purchases (everything ownership depends
  /// on, as the machine's own ownership check), the ledger's consumable counters, and grace.
  /// Equal to ``Entitlements/init(history:subscriptions:at:)`` over the whole history (plus grace),
  /// at the cost of the present: `PresentEntitlementsPropertyTests` checks the two agree.
  public func entitlements(account: String? = nil) throws(LedgerError) -> Entitlements {
    guard let name = account ?? machine.currentAccount else { return Entitlements(history: [], at: machine.now) }
    var entitlements = Entitlements(
      history: machine.history(account: name), subscriptions: machine.subscriptions(account: name), at: machine.now)
    entitlements.consumableCounts = try ledger.consumableUnits(account: name)
    // B39: a subscription in its billing grace period keeps full access until grace ends.
    for transaction in machine.gracePeriodTransactions(account: name) {
      entitlements.owning[transaction.productID] = transaction
    }
    return entitlements
  }

  /// The working set's transactions of `account` (default: the signed-in one), oldest first:
  /// every unfinished one, each non-consumable chain's first, each live subscription's first and
  /// current period, and what this process touched. Not the history (``history(account:)``).
  public func presentTransactions(account: String? = nil) -> [PaymentTransaction] {
    machine.history(account: account)
  }

  /// How many transactions `account` (default: the signed-in one) has, counted by the ledger.
  public func transactionCount(account: String? = nil) throws(LedgerError) -> Int {
    guard let name = account ?? machine.currentAccount else { return 0 }
    return try ledger.transactionCount(account: name)
  }

  /// The newest transaction of `account` (default: the signed-in one) that `match` accepts, by
  /// purchase date then id, as the ledger has it.
  public func latestTransaction(account: String? = nil, matching match: TransactionMatch) throws(LedgerError) -> PaymentTransaction? {
    guard let name = account ?? machine.currentAccount else { return nil }
    return try ledger.latestTransaction(account: name, matching: match)
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

/// What an account owns at a moment, as a pure function of its transaction history (the reference
/// ``PaymentQueue/entitlements(account:)`` is checked against; it reads only the present).
public struct Entitlements: Sendable, Equatable {
  /// For each owned non-consumable or active subscription, the transaction granting it.
  public var owning: [Product.ID: PaymentTransaction]
  /// Consumable units bought (purchased, not refunded), by product.
  public var consumableCounts: [Product.ID: Int]

  /// What `history` grants at `now`.
  ///
  /// - Parameter subscriptions: the account's subscription records; a chain whose record is
  ///   expired or revoked grants nothing, whatever its rows say (a refund of an earlier period
  ///   revokes the chain). Empty: the rows alone decide.
  public init(history: [PaymentTransaction], subscriptions: [SubscriptionRecord] = [], at now: Date) {
    let ended = Set(subscriptions.filter { $0.status == .expired || $0.status == .revoked }.map(\.originalID))
    var owning: [Product.ID: PaymentTransaction] = [:]
    var counts: [Product.ID: Int] = [:]
    for transaction in history
    where (transaction.state == .purchased || transaction.state == .restored) && transaction.revocationDate == nil {
      switch transaction.productKind {
      case .consumable:
        if transaction.state == .purchased { counts[transaction.productID, default: 0] += transaction.quantity }
      case .nonConsumable:
        // B23: a re-download or restore is no purchase of its own; the original grants, and its
        // refund takes the product back.
        if transaction.id == transaction.originalID, owning[transaction.productID] == nil {
          owning[transaction.productID] = transaction
        }
      case .nonRenewingSubscription:
        // B66: the latest transaction of a non-renewing subscription, as `currentEntitlements`.
        owning[transaction.productID] = transaction
      case .autoRenewableSubscription:
        // B44: an upgraded-from period no longer grants its product. A restored copy is no period
        // of its own: it keeps the expiry it was copied with when the period is cut short.
        // §47: a bundle's component ends with the bundle.
        if transaction.state == .purchased, !transaction.isUpgraded, !ended.contains(transaction.originalID),
          !(transaction.bundleOriginalID.map(ended.contains) ?? false),
          let expires = transaction.expiresDate, expires > now,
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
