extension PaymentQueue {
  /// `restoreCompletedTransactions()`: a `restored` transaction for each non-consumable purchase and
  /// each auto-renewable subscription transaction of the account (never consumables or non-renewing
  /// subscriptions, as StoreKit), then "finished" — also when there is nothing to restore.
  public func restoreCompletedTransactions() throws(EngineError) {
    guard let account = currentAccount else {
      prompt = .signIn(purpose: .restore)
      emit([.promptPresented(.signIn(purpose: .restore))])
      return
    }
    if let failure = controls.failures[.appStoreSync], roll(failure.chance) {
      emit([.restoreFailed(failure.error)])
      return
    }
    // The store restores from its records, which another process on this ledger may have added to.
    try refreshHistory()
    var seenNonConsumables: Set<Product.ID> = []
    var restored: [PaymentTransaction] = []
    for original in history(account: account)
    where original.state == .purchased && original.revocationDate == nil {
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
      copy.purchaseDate = now
      copy.isFinished = false
      copy.signedTransaction = nil
      copy.price = 0
      restored.append(copy)
    }
    let saved = restored.isEmpty ? [] : try commit(restored)
    var events: [StoreEvent] = saved.isEmpty ? [] : [.transactionsUpdated(saved)]
    events.append(.restoreFinished(restoredCount: saved.count))
    emit(events)
  }
}
