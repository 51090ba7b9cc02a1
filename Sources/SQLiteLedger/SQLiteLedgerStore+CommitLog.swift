import Foundation
import StoreEngine

extension SQLiteLedgerStore {
  /// What other connections (other processes) committed after `position`: the commit log's records
  /// after it that this connection did not write, in order, each turned into typed changes with the rows as they are in this one read
  /// (``CommitLog/materialize(_:rows:)``). When the log was trimmed behind `position`, says to start
  /// over from the present instead.
  public func changes(since position: UInt64) throws(LedgerError) -> LedgerChanges {
    let statements = try openStatements()
    var changes = LedgerChanges(position: position)
    var undecodable: String?
    do throws(SQLiteFailure) {
      try statements.beginRead.run()
      defer { if !connection.isAutocommit { try? statements.rollback.run() } }
      var counter: Int64 = 0
      try statements.selectChangeCounter.forEachRow { row in counter = row.int64(at: 0) }
      let newest = UInt64(clamping: counter)
      guard newest != position else {
        try statements.commit.run()
        return changes
      }
      var floor: Int64 = 0
      try statements.selectCommitLogFloor.forEachRow { row in floor = row.int64(at: 0) }
      if Int64(clamping: position) < floor {
        try statements.commit.run()
        return LedgerChanges(position: position, startOver: true)
      }
      var commits: [(position: UInt64, entries: [CommitLogEntry])] = []
      try statements.selectCommits.bind(Int64(clamping: position), at: 1)
      try statements.selectCommits.forEachRow { row in
        let at = UInt64(clamping: row.int64(at: 0))
        if ownCommits.remove(row.int64(at: 0)) != nil { return }
        if let entries = CommitLog.decode(row.bytes(at: 1).data) {
          commits.append((at, entries))
        } else if undecodable == nil {
          undecodable = "commit \(at)"
        }
      }
      let rows = try readRows(for: CommitLog.Wanted(commits.map(\.entries)), with: statements, undecodable: &undecodable)
      changes.commits = CommitLog.materialize(commits, rows: rows)
      changes.position = max(position, newest)
      try statements.commit.run()
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    if let undecodable { throw .corrupt(path: path, reason: "the stored \(undecodable) could not be decoded") }
    return changes
  }

  /// The rows `wanted` names, as they are in the open read.
  private func readRows(
    for wanted: CommitLog.Wanted, with statements: Statements, undecodable: inout String?
  ) throws(SQLiteFailure) -> CommitLog.Rows {
    var rows = CommitLog.Rows()
    var missing = undecodable
    for id in wanted.transactions {
      try statements.selectTransactionJSON.bind(Int64(bitPattern: id.rawValue), at: 1)
      try statements.selectTransactionJSON.forEachRow { row in
        if let transaction = decodeTransaction(row.storedTransaction(at: 0)) {
          rows.transactions[id] = transaction
        } else if missing == nil {
          missing = "transaction \(id)"
        }
      }
    }
    rows.subscriptions = try records(
      SubscriptionRecord.self, LedgerSchema.selectSubscriptionJSON, ids: wanted.subscriptions,
      what: "subscription record of transaction", with: statements, missing: &missing)
    rows.askToBuyRequests = try records(
      AskToBuyRequest.self, LedgerSchema.selectRequestJSON, ids: wanted.askToBuyRequests, what: "Ask to Buy request",
      with: statements, missing: &missing)
    let account = try statements.historyPage(LedgerSchema.selectAccountJSON, on: connection)
    for name in wanted.accounts {
      try account.bind(name, at: 1)
      try account.forEachRow { row in
        if let value = try? coder.decode(SandboxAccount.self, from: row.text(at: 0)) {
          rows.accounts[name] = value
        } else if missing == nil {
          missing = "account '\(name)'"
        }
      }
    }
    for (productID, requestID) in wanted.massExtensions {
      try statements.selectMassExtension.bind(productID.rawValue, at: 1)
      try statements.selectMassExtension.bind(requestID, at: 2)
      try statements.selectMassExtension.forEachRow { row in
        if let value = try? recordCoder.decode(MassExtension.self, from: row.text(at: 0)) {
          rows.massExtensions[CommitLog.Rows.key(productID, requestID)] = value
        }
      }
    }
    if wanted.values {
      try statements.selectValues.forEachRow { row in rows.take(value: row.text(at: 1), forKey: row.text(at: 0)) }
    }
    undecodable = missing
    return rows
  }

  /// The records `select` (one JSON column, by id) reads for `ids`, by id; the first that does not
  /// decode is named in `missing`.
  private func records<Record: Decodable>(
    _ type: Record.Type, _ select: String, ids: [PaymentTransaction.ID], what: String, with statements: Statements,
    missing: inout String?
  ) throws(SQLiteFailure) -> [PaymentTransaction.ID: Record] {
    let statement = try statements.historyPage(select, on: connection)
    var found: [PaymentTransaction.ID: Record] = [:]
    for id in ids {
      try statement.bind(Int64(bitPattern: id.rawValue), at: 1)
      try statement.forEachRow { row in
        if let record = try? recordCoder.decode(Record.self, from: row.text(at: 0)) {
          found[id] = record
        } else if missing == nil {
          missing = "\(what) \(id)"
        }
      }
    }
    return found
  }
}
