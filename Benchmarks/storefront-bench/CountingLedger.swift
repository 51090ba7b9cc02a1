import StoreEngine

/// Passes commits through to another ledger, counting them and (while recording) keeping each
/// batch, so the raw SQLite baseline can replay exactly the commits the engine made.
final class CountingLedger: LedgerStore {
  let base: any LedgerStore
  private(set) var commits = 0
  /// Id reservations (each a write transaction of its own).
  private(set) var reservations = 0
  /// The batches committed while ``recording`` was on.
  private(set) var recorded: [[LedgerChange]] = []
  var recording = false
  /// When the last commit returned (``Stopwatch/nanoseconds()``): durable and visible to other processes.
  private(set) var lastCommitEnded: UInt64 = 0

  init(_ base: any LedgerStore) { self.base = base }

  func load() throws(LedgerError) -> LedgerSnapshot { try base.load() }

  /// Id reservations are write transactions too (one per 64 ids); they are not counted as commits.
  func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 {
    let start = try base.reserveTransactionIDs(count: count, atLeast: floor)
    reservations += 1
    return start
  }

  func history(account: String) throws(LedgerError) -> [PaymentTransaction] { try base.history(account: account) }

  func allTransactions() throws(LedgerError) -> [PaymentTransaction] { try base.allTransactions() }

  func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] { try base.transactions(ids) }
  func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? {
    try base.massExtension(productID: productID, requestID: requestID)
  }

  func commit(_ changes: [LedgerChange]) throws(LedgerError) {
    try base.commit(changes)
    lastCommitEnded = Stopwatch.nanoseconds()
    commits += 1
    if recording { recorded.append(changes) }
  }
}
