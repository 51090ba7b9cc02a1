import Foundation

extension StoreMachine {
  /// `restoreCompletedTransactions()`: a `restored` transaction for each non-consumable purchase and
  /// each auto-renewable subscription transaction of the account (never consumables or non-renewing
  /// subscriptions, as StoreKit), then "finished" — also when there is nothing to restore.
  ///
  /// The store restores from its records: the shell brings the account's whole history into the
  /// working set first (another process may have added to it).
  /// - Parameter applicationUsername: restores only the purchases whose payment carried this
  ///   `applicationUsername` (`restoreCompletedTransactions(withApplicationUsername:)`); nil, all.
  mutating func restoreCompletedTransactions(applicationUsername: String? = nil) throws(EngineError) {
    guard let account = currentAccount else {
      prompt = .signIn(purpose: .restore)
      step.emit(.promptPresented(.signIn(purpose: .restore)))
      return
    }
    if let failure = controls.failures[.appStoreSync], roll(failure.chance) {
      step.emit(.restoreFailed(failure.error))
      return
    }
    var seenNonConsumables: Set<Product.ID> = []
    var restored: [PaymentTransaction] = []
    for original in history(account: account) where original.state == .purchased && original.revocationDate == nil {
      if let applicationUsername, original.applicationUsername != applicationUsername { continue }
      switch original.productKind {
      case .consumable, .nonRenewingSubscription:
        continue
      case .nonConsumable:
        if !seenNonConsumables.insert(original.productID).inserted { continue }
      case .autoRenewableSubscription:
        if original.expiresDate == nil { continue }
      }
      var copy = original
      copy.id = try makeTransactionID()
      copy.originalID = original.originalID
      copy.state = .restored
      copy.appBundleID = environment.bundleID
      copy.purchaseDate = now
      copy.isFinished = false
      copy.signedTransaction = nil
      copy.signedRenewalInfo = nil
      // B20: the price of what is restored, as Apple's payloads carry it (nothing zeroes it).
      restored.append(try put(copy))
    }
    if !restored.isEmpty { step.emit(.transactionsUpdated(restored)) }
    step.emit(.restoreFinished(restoredCount: restored.count))
  }
}
