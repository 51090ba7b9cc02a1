import Foundation
import StoreEngine

extension PostgreSQLLedgerStore {
  /// Hands transaction `id` to `session` if it is still unfinished, `purchasing` and owned by
  /// `expectedOwner`: one transaction that locks the row (`SELECT … FOR UPDATE`) before it compares, so of two clients claiming at once, the second sees the first's owner and
  /// gets nil.
  public func claimPurchase(
    _ id: PaymentTransaction.ID, from expectedOwner: String?, for session: String
  ) throws(LedgerError) -> PaymentTransaction? {
    guard !options.readOnly else { throw .readOnly(path: name) }
    enum Outcome {
      case claimed(PaymentTransaction)
      case lost
      case undecodable
      /// The claimed row could not be encoded; nothing was written.
      case failed(LedgerError)
    }
    let outcome: Outcome = try transaction(nil) { connection throws(PostgreSQLFailure) in
      let locked = try connection.pipeline([
        ("BEGIN", []), ("SELECT json FROM transactions WHERE id = $1 FOR UPDATE", [.int(Int64(bitPattern: id.rawValue))]),
      ])
      func rollBack(_ outcome: Outcome) throws(PostgreSQLFailure) -> Outcome {
        try connection.execute("ROLLBACK")
        return outcome
      }
      guard let row = locked.last, row.rowCount > 0 else { return try rollBack(.lost) }
      guard var claimed = decodeTransaction(row.text(0, 0)) else { return try rollBack(.undecodable) }
      guard claimed.state == .purchasing, !claimed.isFinished else { return try rollBack(.lost) }
      // Already ours: this claim landed before a lost connection hid its COMMIT (DECISIONS §27).
      if claimed.ownerSession == session, session != expectedOwner { return try rollBack(.claimed(claimed)) }
      guard claimed.ownerSession == expectedOwner else { return try rollBack(.lost) }
      claimed.ownerSession = session
      let statements: [Statement]
      do throws(LedgerError) {
        statements = try encode([.putTransaction(claimed)])
      } catch {
        return try rollBack(.failed(error))
      }
      try write(statements, after: nil, on: connection)
      return .claimed(claimed)
    }
    switch outcome {
    case .claimed(let transaction): return transaction
    case .lost: return nil
    case .undecodable: throw .corrupt(path: name, reason: "the stored transaction \(id) could not be decoded")
    case .failed(let error): throw error
    }
  }

  /// Reserves `count` transaction ids no other client will use: the next free id lives in `kv`,
  /// read and moved under its row lock, in two round trips (read under the lock; write and commit).
  public func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 {
    guard !options.readOnly else { throw .readOnly(path: name) }
    let key = PostgreSQLValue.text(PostgreSQLSchema.nextIDKey)
    return try transaction(nil) { connection throws(PostgreSQLFailure) in
      let read = try connection.pipeline([
        ("BEGIN", []),
        ("INSERT INTO kv (key, value) VALUES ($1, '0') ON CONFLICT (key) DO NOTHING", [key]),
        ("SELECT value::numeric::text FROM kv WHERE key = $1 FOR UPDATE", [key]),
        ("SELECT coalesce(max(id), 0) FROM transactions", []),
      ])
      let stored = read.dropLast().last?.text(0, 0).flatMap { UInt64($0) } ?? 0
      let largest = read.last?.int64(0, 0) ?? 0
      let start = max(stored, UInt64(clamping: largest) + 1, floor)
      try connection.pipeline([("UPDATE kv SET value = $2 WHERE key = $1", [key, .text(String(start + count))]), ("COMMIT", [])])
      return start
    }
  }
}
