import Foundation

extension StoreMachine {
  /// Signs a sandbox tester in, creating the account on first use (with `password` stored hashed).
  /// A sign-in sheet that was waiting (for a purchase or a restore) goes on with the new account.
  mutating func signIn(_ name: String, password: String?) throws(EngineError) {
    // A purchase sheet is modal on a device: nobody switches accounts under it.
    if case .confirm(let id, _, _, _, _, _) = prompt, name != currentAccount { throw .sheetIsShowing(id) }
    if let existing = accounts[name] {
      if let stored = existing.passwordHash {
        guard let password, environment.passwordHasher.verify(password: password, against: stored) else {
          throw .wrongPassword(account: name)
        }
      }
    } else {
      var account = SandboxAccount(name: name)
      if let password, !password.isEmpty {
        do {
          account.passwordHash = try environment.passwordHasher.hash(password: password)
        } catch {
          throw .passwordHashing(account: name, reason: String(describing: error))
        }
      }
      accounts[name] = account
      step.changes.append(.putAccount(account))
    }
    step.changes.append(.setCurrentAccount(name))
    let previous = currentAccount
    currentAccount = name
    if previous != name { step.emit(.accountChanged(name)) }
    try continueAfterSignIn(account: name)
  }

  /// The device's account, signed in by a storefront that checked its password (DECISIONS §38):
  /// the record is the storefront's, so it is not written again (that would drop its password).
  mutating func adoptAccount(_ name: String) throws(EngineError) {
    if case .confirm(let id, _, _, _, _, _) = prompt, name != currentAccount { throw .sheetIsShowing(id) }
    if accounts[name] == nil { accounts[name] = SandboxAccount(name: name) }
    step.changes.append(.setCurrentAccount(name))
    let previous = currentAccount
    currentAccount = name
    if previous != name { step.emit(.accountChanged(name)) }
    try continueAfterSignIn(account: name)
  }

  /// Signs the current tester out. Their unfinished transactions stay, and come back when they return.
  mutating func signOut() {
    step.changes.append(.setCurrentAccount(nil))
    currentAccount = nil
    step.emit(.accountChanged(nil))
  }

  /// Removes every transaction of `account` (App Store Connect's "Clear Purchase History").
  mutating func clearPurchaseHistory(account: String?) throws(EngineError) {
    guard let name = account ?? currentAccount else { throw .notSignedIn }
    // The app's unfinished transactions of that account leave its queue (`removedTransactions`).
    let unfinished = order.compactMap { transactions[$0] }.filter { $0.account == name && !$0.isFinished }
    if !unfinished.isEmpty { step.emit(.transactionsRemoved(unfinished)) }
    step.changes.append(.clearHistory(account: name))
    for record in subscriptionRecords.values where record.account == name {
      subscriptionRecords[record.originalID] = nil
      step.changes.append(.removeSubscription(record.originalID))
    }
    askToBuyRequests = askToBuyRequests.filter { $0.value.account != name }
    let removed = Set(order.filter { transactions[$0]?.account == name })
    order.removeAll { removed.contains($0) }
    for id in removed {
      if let transaction = transactions.removeValue(forKey: id), currentPeriod[transaction.originalID] == id {
        currentPeriod[transaction.originalID] = nil
      }
    }
    waitingForPrompt.removeAll { removed.contains($0) }
    if let last = lastTransactionID, removed.contains(last) { lastTransactionID = nil }
    step.emit(.historyCleared(account: name))
  }

  private mutating func continueAfterSignIn(account: String) throws(EngineError) {
    guard case .signIn(let purpose) = prompt else {
      try presentNextPromptOrComplete()
      return
    }
    prompt = nil
    step.emit(.promptDismissed)
    switch purpose {
    case .restore:
      try restoreCompletedTransactions()
    case .purchase(let id):
      if var transaction = transactions[id], transaction.account.isEmpty || transaction.account != account {
        transaction.account = account
        try put(transaction)
      }
      waitingForPrompt.insert(id, at: 0)
    }
    try presentNextPromptOrComplete()
  }
}
