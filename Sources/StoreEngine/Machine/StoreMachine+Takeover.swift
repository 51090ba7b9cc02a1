extension StoreMachine {
  /// Before a put moves transaction `id` out of `purchasing`: when the working set has it as a
  /// purchase with an owner and this step has not put it yet (so the ledger holds that version),
  /// the batch must find it still `purchasing` and owned by this session. Another process may have
  /// taken it over while this one looked dead (cut off from a shared ledger); the commit then fails
  /// instead of answering a purchase twice.
  mutating func expectOwnership(before id: PaymentTransaction.ID) {
    guard let stored = transactions[id], stored.state == .purchasing, stored.ownerSession != nil else { return }
    let putBefore = step.changes.contains { change in
      change.storedTransaction?.id == id
    }
    guard !putBefore else { return }
    step.changes.append(.expectOwner(id, session: environment.session.id))
  }

  /// Before answering the sheet of `id`: what the ledger's change feed brought in may already say
  /// the purchase is no longer this session's (answered, or claimed, by another process).
  func ensureStillOwned(_ id: PaymentTransaction.ID) throws(EngineError) {
    guard let stored = transactions[id] else { return }
    if stored.state != .purchasing || stored.isFinished {
      throw .purchaseTakenOver(id, owner: nil)
    }
    if let owner = stored.ownerSession, owner != environment.session.id {
      throw .purchaseTakenOver(id, owner: owner)
    }
  }

  /// The step after an answer to the sheet of `id` was refused because another process took the
  /// purchase over: its sheet goes away, the purchase is taken in as the ledger has it now
  /// (`current`; nil when it is gone), and the next waiting sheet, if any, comes up.
  mutating func handleTakeover(of id: PaymentTransaction.ID, current: PaymentTransaction?) throws(EngineError) -> StoreStep {
    step = StoreStep()
    ids.startStep()
    defer { step = StoreStep() }
    let before = transactions[id]
    if let current, !(current.productKind == .consumable && current.isFinished) {
      absorb([current])
    } else {
      forget(id)
    }
    waitingForPrompt.removeAll { $0 == id }
    if let shown = prompt, shown.transactionID == id {
      prompt = nil
      step.emit(.promptDismissed)
    }
    if let current {
      step.emit(.transactionsAmended([current]))
      // The sheet this process showed was answered elsewhere: the app hears the outcome.
      if isNews(current, before: before) { step.emit(.transactionsChangedElsewhere([current])) }
    }
    try presentNextPromptOrComplete()
    finishNotifications()
    return step
  }
}
