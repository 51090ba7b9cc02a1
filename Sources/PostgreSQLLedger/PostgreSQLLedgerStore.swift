import Foundation
import SQLiteLedger
import StoreEngine

/// The shared ledger: one PostgreSQL database that storefronts on several machines use at once.
///
/// Each ``commit(_:)`` is one database transaction that first locks the change-counter row, so
/// commits are serialized in counter order (readers never miss a commit with a smaller counter) and
/// every compare-and-set inside one (a purchase claim) sees all commits before it. When it returns,
/// the changes are committed (with the server's `synchronous_commit`); when it throws, nothing of
/// the batch was written. A commit that changed a row sends `NOTIFY storefront_ledger` with the new
/// counter, which ``PostgreSQLChangeListener`` waits for.
///
/// Puts are upserts keyed by id, so replaying a batch changes nothing (and notifies nobody).
///
/// > Important: An instance is not thread-safe. Use it from one thread at a time (the engine's), or
/// > open one store per thread.
public final class PostgreSQLLedgerStore: LedgerStore {
  /// How the store opens its database.
  public struct Options: Sendable {
    /// Opens the database for reading only; ``PostgreSQLLedgerStore/commit(_:)`` then throws
    /// ``LedgerError/readOnly(path:)``.
    public var readOnly: Bool
    /// How often a transaction that lost a serialization race or a deadlock runs again before
    /// ``LedgerError/busy(path:)``.
    public var retries: Int

    public init(readOnly: Bool = false, retries: Int = 8) {
      self.readOnly = readOnly
      self.retries = retries
    }
  }

  /// The schema version this build writes.
  public static var schemaVersion: Int { PostgreSQLSchema.currentVersion }

  /// The database, as messages show it (no password).
  public let name: String
  /// Always empty: a database has no file modes to fix. For symmetry with ``SQLiteLedgerStore``.
  public let warnings: [String] = []

  let connection: PostgreSQLConnection
  let options: Options
  let coder = LedgerJSONCoder()
  let recordCoder = LedgerJSONCoder(millisecondDates: true)

  /// Connects to `address` and brings the schema up to ``schemaVersion`` if it is older.
  ///
  /// - Throws: ``LedgerError/unreachable(server:reason:)`` when the server can't be reached or
  ///   refuses the login, ``LedgerError/newerSchema(path:found:supported:)`` for a database of a
  ///   newer storefront, and the errors of a failed migration.
  public init(address: PostgreSQLAddress, options: Options = Options()) throws(LedgerError) {
    self.options = options
    do {
      connection = try PostgreSQLConnection(address)
    } catch {
      throw .unreachable(server: address.description, reason: error.description)
    }
    name = connection.connectedName
    try migrate()
    if options.readOnly {
      try run { connection throws(PostgreSQLFailure) in
        try connection.execute("SET default_transaction_read_only = on")
      }
    }
  }

  /// Connects with a URI or `key=value` connection string.
  public convenience init(_ conninfo: String, options: Options = Options()) throws(LedgerError) {
    try self.init(address: PostgreSQLAddress(conninfo), options: options)
  }

  deinit { close() }

  /// Closes the connection; later calls throw ``LedgerError/unreachable(server:reason:)``.
  public func close() { connection.close() }

  /// Reads what a launch needs in one read-only snapshot: the working set of transactions in
  /// first-insertion order, accounts in order of their latest put, subscription records, open
  /// Ask to Buy requests, the signed-in account, the clock and the notification URLs.
  public func load() throws(LedgerError) -> LedgerSnapshot {
    try readSnapshot { connection throws(PostgreSQLFailure) in
      var snapshot = LedgerSnapshot()
      var undecodable: String?
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
        case "change-counter": snapshot.position = UInt64(clamping: Int64(value) ?? 0)
        case PostgreSQLSchema.accountKey: snapshot.currentAccount = value.isEmpty ? nil : value
        case PostgreSQLSchema.clockKey:
          if let seconds = Double(value) {
            snapshot.clock = Date(timeIntervalSince1970: seconds)
          } else if undecodable == nil {
            undecodable = "clock '\(value)'"
          }
        case let key where key.hasPrefix(PostgreSQLSchema.notificationURLPrefix):
          if !value.isEmpty { snapshot.notificationURLs[String(key.dropFirst(PostgreSQLSchema.notificationURLPrefix.count))] = value }
        default: break
        }
      }
      return (snapshot, undecodable)
    }
  }

  /// What other clients committed after `position`: the rows stamped with a later change counter.
  public func changes(since position: UInt64) throws(LedgerError) -> LedgerChanges {
    try readSnapshot { connection throws(PostgreSQLFailure) in
      var changes = LedgerChanges(position: position)
      var undecodable: String?
      changes.position = UInt64(clamping: try connection.execute(PostgreSQLSchema.selectCounter).int64(0, 0) ?? 0)
      guard changes.position != position else { return (changes, nil) }
      let since = PostgreSQLValue.int(Int64(clamping: position))
      let rows = try connection.execute(PostgreSQLSchema.selectChangedTransactions, [since])
      for row in 0..<rows.rowCount {
        if let transaction = decodeTransaction(rows.text(row, 1)) {
          changes.transactions.append(transaction)
        } else if undecodable == nil {
          undecodable = "transaction \(Self.id(rows.int64(row, 0)))"
        }
      }
      changes.subscriptions = try records(
        SubscriptionRecord.self, PostgreSQLSchema.selectChangedSubscriptions, [since],
        what: "subscription record of transaction", undecodable: &undecodable)
      changes.askToBuyRequests = try records(
        AskToBuyRequest.self, PostgreSQLSchema.selectChangedRequests, [since], what: "Ask to Buy request",
        undecodable: &undecodable)
      var urls: [String: String] = [:]
      let values = try connection.execute(PostgreSQLSchema.selectValues)
      for row in 0..<values.rowCount {
        let key = values.text(row, 0) ?? ""
        let value = values.text(row, 1) ?? ""
        if key == PostgreSQLSchema.clockKey, let seconds = Double(value) {
          changes.clock = Date(timeIntervalSince1970: seconds)
        } else if key.hasPrefix(PostgreSQLSchema.notificationURLPrefix), !value.isEmpty {
          urls[String(key.dropFirst(PostgreSQLSchema.notificationURLPrefix.count))] = value
        }
      }
      changes.notificationURLs = urls
      return (changes, undecodable)
    }
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

  // MARK: - Reading

  func decodeTransaction(_ json: String?) -> PaymentTransaction? {
    guard let json else { return nil }
    return try? coder.decode(PaymentTransaction.self, from: json)
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

  // MARK: - Running statements

  /// Runs `body` outside a transaction block, mapping a failure to the user's error.
  @discardableResult
  func run<Value>(_ body: (PostgreSQLConnection) throws(PostgreSQLFailure) -> Value) throws(LedgerError) -> Value {
    do {
      return try body(connection)
    } catch {
      throw LedgerError(error, name: name)
    }
  }

  /// Runs `body` between `begin` and `COMMIT`, again from the start (up to ``Options/retries``
  /// times) when it lost a serialization race or a deadlock. `body` may end the transaction itself
  /// (a commit with nothing to change rolls back); anything it throws rolls it back.
  @discardableResult
  func transaction<Value>(
    _ begin: String = "BEGIN", _ body: (PostgreSQLConnection) throws(PostgreSQLFailure) -> Value
  ) throws(LedgerError) -> Value {
    var attempt = 0
    while true {
      do {
        try connection.execute(begin)
        let value = try body(connection)
        try connection.execute("COMMIT")
        return value
      } catch {
        if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
        if error.isRetryable, attempt < options.retries {
          attempt += 1
          continue
        }
        throw LedgerError(error, name: name)
      }
    }
  }

  // MARK: - Schema

  /// Brings the schema up to ``schemaVersion`` in one transaction under the migration advisory
  /// lock, re-reading the version under the lock in case another client migrated first.
  private func migrate() throws(LedgerError) {
    let supported = PostgreSQLSchema.currentVersion
    let name = self.name
    let found: Int = try transaction { connection throws(PostgreSQLFailure) in
      try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int(PostgreSQLSchema.migrationLock)])
      try connection.execute(PostgreSQLSchema.versionTable)
      var version = Int(try connection.execute("SELECT version FROM storefront_schema").int64(0, 0) ?? 0)
      guard version < supported else { return version }
      while version < supported {
        try connection.executeScript(PostgreSQLSchema.migrations[version])
        version += 1
      }
      try connection.execute(
        "INSERT INTO storefront_schema (version) VALUES ($1) ON CONFLICT (only_row) DO UPDATE SET version = excluded.version",
        [.int(Int64(supported))])
      return supported
    }
    if found > supported { throw .newerSchema(path: name, found: found, supported: supported) }
  }
}
