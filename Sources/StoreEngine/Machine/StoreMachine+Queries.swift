import Foundation

extension StoreMachine {
  /// The unfinished transactions of the signed-in account, oldest first (`SKPaymentQueue.transactions`).
  /// Every purchase whose sheet is still up somewhere, of any account, oldest first: what an
  /// attached app waits on a storefront for.
  public var purchasingTransactions: [PaymentTransaction] {
    order.compactMap { transactions[$0] }.filter { $0.state == .purchasing && !$0.isFinished }
  }

  /// Only this app's queue: another attached app's transactions are that app's to hear and finish.
  public var unfinishedTransactions: [PaymentTransaction] {
    guard let account = currentAccount else { return [] }
    return order.compactMap { transactions[$0] }.filter { $0.account == account && !$0.isFinished && isInThisAppsQueue($0) }
  }

  /// Whether `transaction` is in the queue of this process's app (``StoreEnvironment/bundleID``):
  /// it was bought or restored by it, or before apps were told apart (no bundle id recorded).
  public func isInThisAppsQueue(_ transaction: PaymentTransaction) -> Bool {
    transaction.appBundleID == nil || transaction.appBundleID == environment.bundleID
  }

  /// The working set's transactions of `account` (default: the signed-in one), oldest first.
  /// The whole history is the ledger's (``PaymentQueue/history(account:)``).
  func history(account: String? = nil) -> [PaymentTransaction] {
    guard let name = account ?? currentAccount else { return [] }
    return order.compactMap { transactions[$0] }.filter { $0.account == name }
  }

  /// A transaction of the working set.
  public func transaction(_ id: PaymentTransaction.ID) -> PaymentTransaction? { transactions[id] }

  /// Known sandbox accounts, by name.
  public var accountNames: [String] { accounts.keys.sorted() }

  /// Renewal records of the account (default: signed-in), by original transaction id.
  public func subscriptions(account: String? = nil) -> [SubscriptionRecord] {
    guard let name = account ?? currentAccount else { return [] }
    return subscriptionRecords.values.filter { $0.account == name }.sorted { $0.originalID < $1.originalID }
  }

  /// The original purchase through which `account` owns `product`, if it does. The working set
  /// holds every chain's first and current transaction, which is all ownership depends on.
  func ownership(of product: Product.ID, account: String) -> PaymentTransaction? {
    var owner: PaymentTransaction?
    for id in order {
      guard let transaction = transactions[id], transaction.account == account, transaction.productID == product,
        transaction.state == .purchased || transaction.state == .restored, transaction.revocationDate == nil
      else { continue }
      switch transaction.productKind {
      case .consumable: return nil
      case .nonConsumable:
        // B23: the original grants (a re-download or restore is no purchase of its own), as
        // ``Entitlements`` has it: a refunded original is not owned through a copy.
        if transaction.id == transaction.originalID { return transaction }
      case .nonRenewingSubscription:
        // B66: the latest transaction of a non-renewing subscription is an entitlement, finished or not.
        owner = transaction
      case .autoRenewableSubscription:
        if !transaction.isUpgraded, let expires = transaction.expiresDate, expires > now,
          (owner?.expiresDate ?? .distantPast) < expires
        {
          owner = transaction
        }
      }
    }
    return owner ?? gracePeriodTransactions(account: account).first { $0.productID == product }
  }
}
