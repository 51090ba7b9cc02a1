extension PaymentQueue {
  /// Signs a sandbox tester in, creating the account on first use (with `password` stored hashed).
  ///
  /// A sign-in sheet that was waiting (for a purchase or a restore) goes on with the new account.
  /// - Throws: ``EngineError/wrongPassword(account:)`` when the account has a different password.
  public func signIn(_ name: String, password: String? = nil) throws(EngineError) {
    var changes: [LedgerChange] = []
    if let existing = accounts[name] {
      if let stored = existing.passwordHash {
        guard let password, environment.passwordHasher.verify(password: password, against: stored) else {
          throw misuse(.wrongPassword(account: name))
        }
      }
    } else {
      var account = SandboxAccount(name: name)
      if let password, !password.isEmpty {
        do {
          account.passwordHash = try environment.passwordHasher.hash(password: password)
        } catch {
          throw misuse(.passwordHashing(account: name, reason: String(describing: error)))
        }
      }
      changes.append(.putAccount(account))
    }
    changes.append(.putValue(key: ValueKey.account, value: name))
    do {
      try environment.ledger.commit(changes)
    } catch {
      throw .ledger(error)
    }
    for case .putAccount(let account) in changes { accounts[account.name] = account }
    let previous = currentAccount
    currentAccount = name
    if previous != name { emit([.accountChanged(name)]) }
    try continueAfterSignIn(account: name)
  }

  /// Signs the current tester out. Their unfinished transactions stay, and come back when they return.
  public func signOut() throws(EngineError) {
    do {
      try environment.ledger.commit([.putValue(key: ValueKey.account, value: "")])
    } catch {
      throw .ledger(error)
    }
    currentAccount = nil
    emit([.accountChanged(nil)])
  }

  /// Removes every transaction of `account` (App Store Connect's "Clear Purchase History").
  public func clearPurchaseHistory(account: String? = nil) throws(EngineError) {
    guard let name = account ?? currentAccount else { throw misuse(.notSignedIn) }
    let removedRecords = subscriptionRecords.values.filter { $0.account == name }
    do {
      try environment.ledger.commit(
        [.clearHistory(account: name)]
          + removedRecords.map { .putValue(key: SubscriptionRecord.key($0.originalID), value: "") })
    } catch {
      throw .ledger(error)
    }
    order.removeAll { transactions[$0]?.account == name }
    transactions = transactions.filter { $0.value.account != name }
    for record in removedRecords { subscriptionRecords[record.originalID] = nil }
    waitingForPrompt.removeAll { transactions[$0] == nil }
  }

  private func continueAfterSignIn(account: String) throws(EngineError) {
    guard case .signIn(let purpose) = prompt else {
      try presentNextPromptOrComplete()
      return
    }
    prompt = nil
    emit([.promptDismissed])
    switch purpose {
    case .restore:
      try restoreCompletedTransactions()
    case .purchase(let id):
      if var transaction = transactions[id], transaction.account.isEmpty || transaction.account != account {
        transaction.account = account
        try commit([transaction])
      }
      waitingForPrompt.insert(id, at: 0)
    }
    try presentNextPromptOrComplete()
  }
}
