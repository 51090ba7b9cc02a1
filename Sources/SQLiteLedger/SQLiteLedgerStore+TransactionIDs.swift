import Foundation
import StoreEngine

extension SQLiteLedgerStore {
  /// Reserves the next transaction id under the write lock: the largest of `candidate`, one past
  /// every stored id and the counter other processes advanced, so processes sharing the file never
  /// hand out the same id.
  ///
  /// One process on a fresh ledger gets exactly `candidate`, so scenarios replay identically.
  ///
  /// - Throws: ``LedgerError/busy(path:)``, ``LedgerError/readOnly(path:)`` or
  ///   ``LedgerError/writeFailed(path:reason:)``; nothing is reserved then.
  public func reserveTransactionID(atLeast candidate: UInt64) throws(LedgerError) -> UInt64 {
    guard connection.isOpen else { throw .cannotOpen(path: path, reason: "the store was closed; open it again") }
    guard !connection.isReadOnly else { throw .readOnly(path: path) }
    do {
      try connection.execute("BEGIN IMMEDIATE")
      let stored = UInt64(bitPattern: try connection.integer("SELECT coalesce(max(id), 0) FROM transactions"))
      let counter = UInt64(
        bitPattern: try connection.integer(
          "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM kv WHERE key = '\(LedgerSchema.nextTransactionIDKey)'), 0)"))
      let id = max(candidate, stored &+ 1, counter)
      let statement = try connection.prepare(LedgerSchema.reserveTransactionID)
      try statement.bind(String(id &+ 1), at: 1)
      try statement.run()
      try connection.execute("COMMIT")
      return id
    } catch {
      if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
      throw LedgerError(error, path: path, while: .writing)
    }
  }
}
