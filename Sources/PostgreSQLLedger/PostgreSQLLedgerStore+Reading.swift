import Foundation
import StoreEngine

/// Reading: the launch snapshot, the change feed and the history queries, each in one statement or
/// one read-only snapshot.
extension PostgreSQLLedgerStore {
  /// Reads what a launch needs in one read-only snapshot: the working set of transactions in
  /// first-insertion order, accounts in order of their latest put, subscription records, open
  /// Ask to Buy requests, the signed-in account, the clock and the notification URLs.
  public func load() throws(LedgerError) -> LedgerSnapshot {
    try readSnapshot { connection throws(PostgreSQLFailure) in
      var snapshot = LedgerSnapshot()
      var undecodable: String?
      let seen = try currentMark(following: 0, on: connection)
      snapshot.position = seen.position
      let working = try connection.execute(PostgreSQLSchema.selectWorkingSet)
      for row in 0..<working.rowCount {
        if let transaction = decodeTransaction(working.text(row, 2)) {
          snapshot.transactions.append(transaction)
        } else if undecodable == nil {
          undecodable = "transaction \(Self.id(working.int64(row, 1)))"
        }
      }
      let accounts = try connection.execute(PostgreSQLSchema.selectAccounts)
      for row in 0..<accounts.rowCount {
        if let account = try? coder.decode(SandboxAccount.self, from: accounts.text(row, 1) ?? "") {
          snapshot.accounts.append(account)
        } else if undecodable == nil {
          undecodable = "account '\(accounts.text(row, 0) ?? "")'"
        }
      }
      snapshot.subscriptions = try records(
        SubscriptionRecord.self, PostgreSQLSchema.selectSubscriptions, [], what: "subscription record of transaction",
        undecodable: &undecodable)
      snapshot.askToBuyRequests = try records(
        AskToBuyRequest.self, PostgreSQLSchema.selectOpenRequests, [], what: "Ask to Buy request", undecodable: &undecodable)
      let values = try connection.execute(PostgreSQLSchema.selectValues)
      for row in 0..<values.rowCount {
        let value = values.text(row, 1) ?? ""
        switch values.text(row, 0) ?? "" {
        case PostgreSQLSchema.accountKey: snapshot.currentAccount = value.isEmpty ? nil : value
        case PostgreSQLSchema.clockKey:
          if let seconds = Double(value) {
            snapshot.clock = Date(timeIntervalSince1970: seconds)
          } else if undecodable == nil {
            undecodable = "clock '\(value)'"
          }
        case let key where key.hasPrefix(PostgreSQLSchema.notificationURLPrefix):
          if !value.isEmpty { snapshot.notificationURLs[String(key.dropFirst(PostgreSQLSchema.notificationURLPrefix.count))] = value }
        case let key where key.hasPrefix(PostgreSQLSchema.devicePrefix):
          if !value.isEmpty { snapshot.deviceValues[String(key.dropFirst(PostgreSQLSchema.devicePrefix.count))] = value }
        default: break
        }
      }
      if undecodable == nil { remember(seen) }
      return (snapshot, undecodable)
    }
  }

  /// What other clients committed after `position`: the commit log's rows whose writing
  /// transaction the snapshot behind `position` did not see and this one does (see
  /// ``PostgreSQLFeedMark``), grouped by commit, turned into typed changes with the rows as this
  /// snapshot has them (``CommitLog/materialize(_:rows:)``). Every commit comes once, and with every
  /// commit that committed before it. The position stays when nothing new was committed; when the
  /// log was trimmed past what `position` saw, the answer says to start over from the present.
  public func changes(since position: UInt64) throws(LedgerError) -> LedgerChanges {
    let previous = feedMarks.last { $0.position == position } ?? .assumed(position)
    return try readSnapshot { connection throws(PostgreSQLFailure) in
      var undecodable: String?
      let seen = try currentMark(following: position, on: connection)
      let unseen: [PostgreSQLValue] = [.int(Int64(clamping: previous.floor)), .text(previous.snapshot)]
      let logged = try connection.execute(PostgreSQLSchema.selectCommits, unseen)
      guard logged.rowCount > 0 else { return (LedgerChanges(position: position), nil) }
      let floor = try connection.execute(PostgreSQLSchema.selectCommitLogFloor).int64(0, 0) ?? 0
      if Int64(clamping: previous.floor) < floor { return (LedgerChanges(position: position, startOver: true), nil) }
      var commits: [(position: UInt64, entries: [CommitLogEntry])] = []
      for row in 0..<logged.rowCount {
        let stamp = Self.id(logged.int64(row, 0))
        if ownStamps.contains(stamp) { continue }
        guard let entries = CommitLog.decode(Data((logged.text(row, 1) ?? "").utf8)) else {
          if undecodable == nil { undecodable = "commit \(stamp)" }
          continue
        }
        if let last = commits.indices.last, commits[last].position == stamp {
          commits[last].entries += entries
        } else {
          commits.append((stamp, entries))
        }
      }
      let rows = try readRows(for: CommitLog.Wanted(commits.map(\.entries)), on: connection, undecodable: &undecodable)
      var changes = LedgerChanges(position: seen.position, commits: CommitLog.materialize(commits, rows: rows))
      changes.position = seen.position
      if undecodable == nil {
        remember(seen)
        // Passed: this client's own commits among them will not be read again.
        for row in 0..<logged.rowCount { ownStamps.remove(Self.id(logged.int64(row, 0))) }
      }
      return (changes, undecodable)
    }
  }

  /// The rows `wanted` names, as the open snapshot has them.
  private func readRows(
    for wanted: CommitLog.Wanted, on connection: PostgreSQLConnection, undecodable: inout String?
  ) throws(PostgreSQLFailure) -> CommitLog.Rows {
    var rows = CommitLog.Rows()
    func array(_ ids: [PaymentTransaction.ID]) -> PostgreSQLValue {
      .text("{" + ids.map { String(Int64(bitPattern: $0.rawValue)) }.joined(separator: ",") + "}")
    }
    if !wanted.transactions.isEmpty {
      let found = try connection.execute("SELECT id, json FROM transactions WHERE id = ANY($1::bigint[])", [array(wanted.transactions)])
      for row in 0..<found.rowCount {
        if let transaction = decodeTransaction(found.text(row, 1)) {
          rows.transactions[transaction.id] = transaction
        } else if undecodable == nil {
          undecodable = "transaction \(Self.id(found.int64(row, 0)))"
        }
      }
    }
    if !wanted.subscriptions.isEmpty {
      for record in try records(
        SubscriptionRecord.self, "SELECT original_id, json FROM subscriptions WHERE original_id = ANY($1::bigint[])",
        [array(wanted.subscriptions)], what: "subscription record of transaction", undecodable: &undecodable)
      {
        rows.subscriptions[record.originalID] = record
      }
    }
    if !wanted.askToBuyRequests.isEmpty {
      for request in try records(
        AskToBuyRequest.self, "SELECT id, json FROM ask_to_buy WHERE id = ANY($1::bigint[])", [array(wanted.askToBuyRequests)],
        what: "Ask to Buy request", undecodable: &undecodable)
      {
        rows.askToBuyRequests[request.id] = request
      }
    }
    for name in wanted.accounts {
      let found = try connection.execute("SELECT json FROM accounts WHERE name = $1", [.text(name)])
      guard found.rowCount > 0 else { continue }
      if let account = try? coder.decode(SandboxAccount.self, from: found.text(0, 0) ?? "") {
        rows.accounts[name] = account
      } else if undecodable == nil {
        undecodable = "account '\(name)'"
      }
    }
    for (productID, requestID) in wanted.massExtensions {
      let found = try connection.execute(PostgreSQLSchema.selectMassExtension, [.text(productID.rawValue), .text(requestID)])
      if found.rowCount > 0, let request = try? recordCoder.decode(MassExtension.self, from: found.text(0, 0) ?? "") {
        rows.massExtensions[CommitLog.Rows.key(productID, requestID)] = request
      }
    }
    if wanted.values {
      let values = try connection.execute(PostgreSQLSchema.selectValues)
      for row in 0..<values.rowCount { rows.take(value: values.text(row, 1) ?? "", forKey: values.text(row, 0) ?? "") }
    }
    return rows
  }

  public func history(account: String) throws(LedgerError) -> [PaymentTransaction] {
    try readTransactions(PostgreSQLSchema.selectHistory, [.text(account)])
  }

  public func allTransactions() throws(LedgerError) -> [PaymentTransaction] {
    try readTransactions(PostgreSQLSchema.selectTransactions, [])
  }

  public func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] {
    guard !ids.isEmpty else { return [] }
    let found = try readTransactions(
      "SELECT id, json FROM transactions WHERE id = ANY($1::bigint[])",
      [.text("{" + ids.map { String(Int64(bitPattern: $0.rawValue)) }.joined(separator: ",") + "}")])
    let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return ids.compactMap { byID[$0] }
  }

  public func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? {
    let result = try run { connection throws(PostgreSQLFailure) in
      try connection.execute(PostgreSQLSchema.selectMassExtension, [.text(productID.rawValue), .text(requestID)])
    }
    guard result.rowCount > 0, let json = result.text(0, 0) else { return nil }
    guard let request = try? recordCoder.decode(MassExtension.self, from: json) else {
      throw .corrupt(path: name, reason: "the stored mass extension '\(requestID)' of \(productID.rawValue) could not be decoded")
    }
    return request
  }

  func decodeTransaction(_ json: String?) -> PaymentTransaction? {
    guard let json else { return nil }
    return try? coder.decode(PaymentTransaction.self, from: json)
  }

  /// This read's snapshot as a feed mark; it must run first in the read's transaction, which
  /// fixes the snapshot. Its position is the largest stamp the snapshot sees (at least `position`),
  /// so it moves only when something was committed, and is 0 on an empty ledger.
  private func currentMark(following position: UInt64, on connection: PostgreSQLConnection) throws(PostgreSQLFailure)
    -> PostgreSQLFeedMark
  {
    let result = try connection.execute(PostgreSQLSchema.selectSnapshot)
    let floor = UInt64(result.text(0, 1) ?? "") ?? 0
    let newest = UInt64(clamping: try connection.execute(PostgreSQLSchema.selectNewestStamp).int64(0, 0) ?? 0)
    return PostgreSQLFeedMark(position: max(position, newest), floor: floor, snapshot: result.text(0, 0) ?? "\(floor):\(floor):")
  }

  /// Keeps `mark` for the next ``changes(since:)`` from its position (the last few, for callers that
  /// hold a load's and a refresh's position at once).
  private func remember(_ mark: PostgreSQLFeedMark) {
    feedMarks.removeAll { $0.position == mark.position }
    feedMarks.append(mark)
    if feedMarks.count > 8 { feedMarks.removeFirst() }
  }

  static func id(_ stored: Int64?) -> UInt64 { UInt64(bitPattern: stored ?? 0) }

  private func readTransactions(_ sql: String, _ parameters: [PostgreSQLValue]) throws(LedgerError) -> [PaymentTransaction] {
    let result = try run { connection throws(PostgreSQLFailure) in try connection.execute(sql, parameters) }
    var list: [PaymentTransaction] = []
    for row in 0..<result.rowCount {
      guard let transaction = decodeTransaction(result.text(row, 1)) else {
        throw .corrupt(path: name, reason: "the stored transaction \(Self.id(result.int64(row, 0))) could not be decoded")
      }
      list.append(transaction)
    }
    return list
  }

  /// The `(key, json)` rows of `sql` decoded as `Value`; the first that does not decode is noted.
  private func records<Value: Decodable>(
    _ type: Value.Type, _ sql: String, _ parameters: [PostgreSQLValue], what: String, undecodable: inout String?
  ) throws(PostgreSQLFailure) -> [Value] {
    let result = try connection.execute(sql, parameters)
    var values: [Value] = []
    for row in 0..<result.rowCount {
      if let value = try? recordCoder.decode(Value.self, from: result.text(row, 1) ?? "") {
        values.append(value)
      } else if undecodable == nil {
        undecodable = "\(what) \(Self.id(result.int64(row, 0)))"
      }
    }
    return values
  }

  /// Runs `body` in one `REPEATABLE READ READ ONLY` transaction, so its tables are seen at one
  /// instant; the second value it returns names a stored value that did not decode.
  private func readSnapshot<Value>(
    _ body: (PostgreSQLConnection) throws(PostgreSQLFailure) -> (Value, String?)
  ) throws(LedgerError) -> Value {
    let (value, undecodable) = try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    if let undecodable { throw .corrupt(path: name, reason: "the stored \(undecodable) could not be decoded") }
    return value
  }
}
