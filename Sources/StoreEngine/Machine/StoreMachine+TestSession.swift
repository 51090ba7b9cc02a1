import Foundation

extension StoreMachine {
  /// `SKTestSession.deleteTransaction(identifier:)` (B71): the transaction leaves the history and the
  /// queue; what it entitled goes with it. No StoreKit 1 callback exists for it; front ends hear
  /// ``StoreEvent/transactionDeleted(_:)``.
  mutating func deleteTransaction(_ id: PaymentTransaction.ID) throws(EngineError) {
    guard let transaction = transactions[id] else { throw .unknownTransaction(id.description) }
    if transaction.state == .purchasing { throw .cannotFinishPurchasing(id) }
    step.changes.append(.deleteTransaction(id))
    forget(id)
    if currentPeriod[transaction.originalID] == id { currentPeriod[transaction.originalID] = nil }
    if lastTransactionID == id { lastTransactionID = nil }
    // A subscription whose first purchase is deleted is gone as a chain.
    if transaction.originalID == id, subscriptionRecords[id] != nil {
      subscriptionRecords[id] = nil
      step.changes.append(.removeSubscription(id))
    }
    step.emit(.transactionDeleted(transaction))
  }

  /// `SKTestSession.resetToDefaultState()` (B71): every account's purchase history is cleared and
  /// the sandbox controls return to the catalog's settings. Accounts and the clock stay.
  mutating func resetToDefaultState() throws(EngineError) {
    let owners = Set(accounts.keys).union(transactions.values.map(\.account)).union(subscriptionRecords.values.map(\.account))
    for account in owners.sorted() { try clearPurchaseHistory(account: account) }
    let storefront = controls.storefront
    controls = SandboxControls(settings: catalog.settings)
    step.emit(.controlsChanged(controls))
    if controls.storefront != storefront { step.emit(.storefrontChanged(controls.storefront)) }
  }
}
