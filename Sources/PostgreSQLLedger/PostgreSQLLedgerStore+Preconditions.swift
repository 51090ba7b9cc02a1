import Foundation
import StoreEngine

extension PostgreSQLLedgerStore {
  /// ``commit(_:)`` of a batch with ``LedgerChange/expectOwner(_:session:)`` preconditions: checked
  /// first in the transaction, under row locks, and the writes only when every one holds.
  ///
  /// - Throws: ``LedgerError/takenOver(path:transaction:owner:)`` (nothing written) and the errors of
  ///   ``commit(_:)``.
  func commitExpectingOwners(_ changes: [LedgerChange]) throws(LedgerError) {
    enum Outcome {
      case written
      case refused(LedgerError)
    }
    let statements = try encode(changes)
    // A COMMIT lost with the connection and found committed is `.written` (DECISIONS §27).
    let outcome: Outcome = try transaction(nil, ifLanded: .written) { connection throws(PostgreSQLFailure) in
      try connection.execute("BEGIN")
      if let violation = try ownerViolation(of: changes, on: connection) {
        try connection.execute("ROLLBACK")
        return .refused(violation)
      }
      try write(statements, after: nil, on: connection)
      return .written
    }
    if case .refused(let violation) = outcome { throw violation }
    trimCommitLogNow()
  }

  /// The error of the first ``LedgerChange/expectOwner(_:session:)`` of `changes` that the rows as
  /// stored do not meet, or nil when every one holds (or there is none). Runs first in the commit's
  /// transaction and locks the rows it reads (`FOR UPDATE`), so a claim by another client waits for
  /// this commit, and this one sees a claim that committed first.
  func ownerViolation(of changes: [LedgerChange], on connection: PostgreSQLConnection) throws(PostgreSQLFailure) -> LedgerError? {
    let expected = LedgerChange.deviceValueExpectations(in: changes)
    if !expected.isEmpty {
      // A transaction-scoped advisory lock per key (two-int form, class 36: apart from the session
      // and migration locks' bigint keys; in key order, so two batches cannot deadlock)
      // makes a concurrent compare-and-set of the same key wait for this commit, even for a row
      // not there yet (which FOR UPDATE could not lock); read committed, the read after the lock
      // sees what the other commit wrote.
      var stored: [String: String] = [:]
      for key in Set(expected.map(\.key)).sorted() {
        let row = PostgreSQLSchema.devicePrefix + key
        _ = try connection.execute("SELECT pg_advisory_xact_lock(36, hashtext($1))", [.text(row)])
        let rows = try connection.execute("SELECT value FROM kv WHERE key = $1", [.text(row)])
        if rows.rowCount > 0 { stored[key] = rows.text(0, 0) }
      }
      if let violation = LedgerChange.violation(of: expected, stored: stored, path: name) { return violation }
    }
    let expectations = LedgerChange.ownerExpectations(in: changes)
    guard !expectations.isEmpty else { return nil }
    let ids = "{" + expectations.map { String(Int64(bitPattern: $0.id.rawValue)) }.joined(separator: ",") + "}"
    let rows = try connection.execute(
      "SELECT id, json FROM transactions WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE", [.text(ids)])
    var stored: [PaymentTransaction] = []
    for row in 0..<rows.rowCount {
      guard let transaction = decodeTransaction(rows.text(row, 1)) else {
        return .corrupt(path: name, reason: "the stored transaction \(Self.id(rows.int64(row, 0))) could not be decoded")
      }
      stored.append(transaction)
    }
    return LedgerChange.violation(of: expectations, stored: stored, path: name)
  }
}
