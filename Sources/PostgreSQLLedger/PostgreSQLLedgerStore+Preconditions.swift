import Foundation
import StoreEngine

extension PostgreSQLLedgerStore {
  /// The error of the first ``LedgerChange/expectOwner(_:session:)`` of `changes` that the rows as
  /// stored do not meet, or nil when every one holds (or there is none). Runs first in the commit's
  /// transaction and locks the rows it reads (`FOR UPDATE`), so a claim by another client waits for
  /// this commit, and this one sees a claim that committed first.
  func ownerViolation(of changes: [LedgerChange], on connection: PostgreSQLConnection) throws(PostgreSQLFailure) -> LedgerError? {
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
