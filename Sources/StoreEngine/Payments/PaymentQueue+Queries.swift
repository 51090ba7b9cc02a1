import Foundation

extension PaymentQueue {
  /// The unfinished transactions of the signed-in account, oldest first (`SKPaymentQueue.transactions`).
  public var queue: [PaymentTransaction] {
    guard let account = currentAccount else { return [] }
    return order.compactMap { transactions[$0] }.filter { $0.account == account && !$0.isFinished }
  }

  /// Every transaction of `account` (default: the signed-in one), oldest first.
  public func history(account: String? = nil) -> [PaymentTransaction] {
    guard let name = account ?? currentAccount else { return [] }
    return order.compactMap { transactions[$0] }.filter { $0.account == name }
  }

  /// Every transaction in the ledger, oldest first.
  public var allTransactions: [PaymentTransaction] { order.compactMap { transactions[$0] } }

  public func transaction(_ id: PaymentTransaction.ID) -> PaymentTransaction? { transactions[id] }

  /// Known sandbox accounts, by name.
  public var accountNames: [String] { accounts.keys.sorted() }

  /// What the account is entitled to now, derived from its history.
  public func entitlements(account: String? = nil) -> Entitlements {
    Entitlements(history: history(account: account), at: now)
  }

  /// The original purchase through which `account` owns `product`, if it does.
  func ownership(of product: Product.ID, account: String) -> PaymentTransaction? {
    Entitlements(history: history(account: account), at: now).owning[product]
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
      case .autoRenewableSubscription, .nonRenewingSubscription:
        if let expires = transaction.expiresDate, expires > now,
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
