import Foundation

extension StoreMachine {
  /// The `purchasing` transactions a launch would take over: unfinished ones of the signed-in
  /// account with no owner session, or one that is not ours and no longer alive. The shell claims
  /// each in the ledger (one compare-and-set) before the launch step.
  ///
  /// A purchase owned by an attached app (`apps`: their sessions' bundle ids) is that app's: only a
  /// later process of the same app takes it over (the app's next launch), never a storefront.
  public func abandonedPurchases(apps: [String: String] = [:]) -> [PaymentTransaction] {
    var liveness: [String: Bool] = [:]
    return unfinishedTransactions.filter { transaction in
      if let owner = transaction.ownerSession, let bundle = apps[owner], bundle != environment.bundleID { return false }
      return isAbandoned(transaction, liveness: &liveness)
    }
  }

  private func isAbandoned(_ transaction: PaymentTransaction, liveness: inout [String: Bool]) -> Bool {
    let session = environment.session
    guard transaction.state == .purchasing, transaction.ownerSession != session.id else { return false }
    guard let owner = transaction.ownerSession else { return true }
    let alive = liveness[owner] ?? session.isAlive(owner)
    liveness[owner] = alive
    return !alive
  }

  /// Simulates the app starting: unfinished transactions of the signed-in account are delivered
  /// again. A transaction left `purchasing` (the app died while its sheet was up) gets its sheet back
  /// and becomes this session's; one whose sheet another running process shows is left to it.
  ///
  /// - Parameter claims: the abandoned purchases the shell claimed in the ledger, as stored; one
  ///   missing was claimed by another process first and is left out. Nil: the machine is alone with
  ///   its ledger and takes them over itself (as an ordinary change).
  mutating func launch(claims: [PaymentTransaction.ID: PaymentTransaction]?) throws(EngineError) {
    var liveness: [String: Bool] = [:]
    var delivered: [PaymentTransaction] = []
    let session = environment.session.id
    for transaction in unfinishedTransactions {
      if let claims, transaction.state == .purchasing, transaction.ownerSession != session {
        // The shell already asked who is alive and claimed what was abandoned.
        guard let claimed = claims[transaction.id] else { continue }
        remember(claimed)
        delivered.append(claimed)
        continue
      }
      guard isAbandoned(transaction, liveness: &liveness) else {
        if transaction.state != .purchasing || transaction.ownerSession == environment.session.id {
          delivered.append(transaction)
        }
        continue
      }
      var mine = transaction
      mine.ownerSession = session
      delivered.append(try put(mine))
    }
    // What the app just heard about is what a scenario's `last` means, also in a new process.
    if let newest = delivered.last { lastTransactionID = newest.id }
    if !delivered.isEmpty { step.emit(.transactionsUpdated(delivered)) }
    for transaction in delivered where transaction.state == .purchasing && !waitingForPrompt.contains(transaction.id) {
      waitingForPrompt.append(transaction.id)
    }
    try presentNextPromptOrComplete()
  }

  /// Runs a launch as one step (see ``launch(claims:)``).
  mutating func handleLaunch(claims: [PaymentTransaction.ID: PaymentTransaction]?) throws(EngineError) -> StoreStep {
    step = StoreStep()
    ids.startStep()
    defer { step = StoreStep() }
    try launch(claims: claims)
    // A launch can complete a purchase (an abandoned sheet answered with dialogs off): its notification too.
    finishNotifications()
    return step
  }
}
