import StoreEngine

extension SQLiteLedgerStore {
  /// Reserves `count` transaction ids no other process will use, in one write transaction.
  ///
  /// The next free id lives in the key/value table, so two storefront processes on one data
  /// directory never hand out the same id, even before either has written a transaction.
  public func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 {
    guard !options.readOnly else { throw .readOnly(path: path) }
    let statements = try preparedStatements()
    do {
      try statements.begin.run()
      let stored = try connection.integer(
        "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM kv WHERE key = '\(LedgerSchema.nextIDKey)'), 0)")
      let largest = try connection.integer("SELECT coalesce(max(id), 0) FROM transactions")
      let start = max(UInt64(clamping: stored), UInt64(clamping: largest) + 1, floor)
      try statements.upsertValue.bind(LedgerSchema.nextIDKey, at: 1)
      try statements.upsertValue.bind(String(start + count), at: 2)
      try statements.upsertValue.run()
      try statements.commit.run()
      return start
    } catch {
      if !connection.isAutocommit { try? statements.rollback.run() }
      throw LedgerError(error, path: path, while: .writing)
    }
  }
}
