extension PaymentQueue {
  /// What ``launch()`` delivers out of `unfinished`: everything, except `purchasing` transactions
  /// whose owner session is another one still alive. Abandoned `purchasing` transactions (no owner,
  /// or a dead one) are first claimed for this session in the ledger, so that of two processes
  /// launching at once only one takes each over; one that cannot be claimed is left out.
  func takeOverAbandonedPurchases(in unfinished: [PaymentTransaction]) -> [PaymentTransaction] {
    let session = environment.session
    var liveness: [String: Bool] = [:]
    var delivered: [PaymentTransaction] = []
    delivered.reserveCapacity(unfinished.count)
    for transaction in unfinished {
      guard transaction.state == .purchasing, transaction.ownerSession != session.id else {
        delivered.append(transaction)
        continue
      }
      if let owner = transaction.ownerSession {
        let alive = liveness[owner] ?? session.isAlive(owner)
        liveness[owner] = alive
        if alive { continue }
      }
      if let claimed = claim(transaction) { delivered.append(claimed) }
    }
    return delivered
  }

  /// Makes `transaction` this session's in the ledger and in memory; nil when another process got
  /// it first or the ledger failed (reported as a misuse event; the next launch tries again).
  private func claim(_ transaction: PaymentTransaction) -> PaymentTransaction? {
    let session = environment.session.id
    do throws(EngineError) {
      guard let ledger = environment.ledger as? any PurchaseClaimingLedger else {
        var mine = transaction
        mine.ownerSession = session
        return try commit([mine]).first
      }
      let claimed: PaymentTransaction?
      do {
        claimed = try ledger.claimPurchase(transaction.id, from: transaction.ownerSession, for: session)
      } catch {
        throw .ledger(error)
      }
      if let claimed { transactions[claimed.id] = claimed }
      return claimed
    } catch {
      emit([.misuse(error)])
      return nil
    }
  }
}
