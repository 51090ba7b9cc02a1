import Foundation
import StoreEngine

extension SQLiteLedgerStore {
  /// The error of the first ``LedgerChange/expectOwner(_:session:)`` of `changes` that the rows as
  /// stored do not meet, or nil when every one holds (or there is none). Runs inside the open
  /// `BEGIN IMMEDIATE` transaction: it holds the write lock, so nobody changes the rows between
  /// this check and the batch's writes.
  func preconditionViolation(_ changes: [LedgerChange], with statements: Statements) throws(SQLiteFailure) -> LedgerError? {
    let expected = LedgerChange.deviceValueExpectations(in: changes)
    if !expected.isEmpty {
      var stored: [String: String] = [:]
      for expectation in expected {
        let select = statements.selectValue
        try select.bind(LedgerSchema.devicePrefix + expectation.key, at: 1)
        try select.forEachRow { row in stored[expectation.key] = row.text(at: 0) }
      }
      if let violation = LedgerChange.violation(of: expected, stored: stored, path: path) { return violation }
    }
    let expectations = LedgerChange.ownerExpectations(in: changes)
    guard !expectations.isEmpty else { return nil }
    var stored: [PaymentTransaction] = []
    for expectation in expectations {
      var json: StoredTransactionRow?
      let select = statements.selectTransactionJSON
      try select.bind(Int64(bitPattern: expectation.id.rawValue), at: 1)
      try select.forEachRow { row in json = row.storedTransaction(at: 0) }
      guard let json else { continue }
      guard let transaction = decodeTransaction(json) else {
        return .corrupt(path: path, reason: "the stored transaction \(expectation.id) could not be decoded")
      }
      stored.append(transaction)
    }
    return LedgerChange.violation(of: expectations, stored: stored, path: path)
  }
}
