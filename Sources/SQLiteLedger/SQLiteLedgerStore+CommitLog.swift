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
    let subscription = try statements.historyPage(LedgerSchema.selectSubscriptionJSON, on: connection)
    for id in wanted.subscriptions {
      try subscription.bind(Int64(bitPattern: id.rawValue), at: 1)
      try subscription.forEachRow { row in
        if let record = try? recordCoder.decode(SubscriptionRecord.self, from: row.text(at: 0)) {
          rows.subscriptions[id] = record
        } else if missing == nil {
          missing = "subscription record of transaction \(id)"
        }
      }
    }
    let request = try statements.historyPage(LedgerSchema.selectRequestJSON, on: connection)
    for id in wanted.askToBuyRequests {
      try request.bind(Int64(bitPattern: id.rawValue), at: 1)
      try request.forEachRow { row in
        if let value = try? recordCoder.decode(AskToBuyRequest.self, from: row.text(at: 0)) {
          rows.askToBuyRequests[id] = value
        } else if missing == nil {
          missing = "Ask to Buy request \(id)"
        }
      }
    }
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
}
