/// A ledger that several processes share, able to hand an abandoned `purchasing` transaction to a
/// new session as one compare-and-set.
///
/// Without it, two processes launching at once could both see the same dead owner, both take the
/// purchase over and both show its sheet. Ledgers only one process uses (``InMemoryLedgerStore``)
/// need not conform: the engine then takes a purchase over with an ordinary commit.
public protocol PurchaseClaimingLedger: LedgerStore {
  /// If transaction `id` is stored unfinished, `purchasing` and owned by `expectedOwner` (nil: no
  /// owner), makes `session` its owner atomically and returns it as stored; otherwise changes
  /// nothing and returns nil (another process claimed, answered or finished it first).
  func claimPurchase(
    _ id: PaymentTransaction.ID, from expectedOwner: String?, for session: String
  ) throws(LedgerError) -> PaymentTransaction?
}
