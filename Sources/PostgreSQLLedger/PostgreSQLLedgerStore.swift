import Foundation
import SQLiteLedger
import StoreEngine

/// The shared ledger: one PostgreSQL database that storefronts on several machines use at once.
///
/// Each ``commit(_:)`` is one database transaction that stamps the rows it writes with its
/// transaction id; commits take no global lock, so they overlap. Compare-and-set steps (purchase
/// claims, id blocks) lock the rows they compare (`SELECT … FOR UPDATE`). The change feed hands out
/// positions backed by snapshots (``PostgreSQLFeedMark``), so a reader gets every commit once. When
/// it returns, the changes are committed (with the server's `synchronous_commit`); when it throws,
/// nothing of the batch was written. A commit that changed a row sends `NOTIFY storefront_ledger`
/// with its transaction id, which ``PostgreSQLChangeListener`` waits for.
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
    /// How a lost connection is got back (DECISIONS §27).
    public var reconnect: PostgreSQLReconnectPolicy
    /// Told each change of the connection's state (on the thread using the store).
    public var onConnectionChange: (@Sendable (LedgerConnectionState) -> Void)?
    /// Whether opening waits for a server that is away (by ``reconnect``) instead of failing at once.
    public var waitsAtOpen: Bool

    public init(
      readOnly: Bool = false, retries: Int = 8, reconnect: PostgreSQLReconnectPolicy = .commandLine,
      onConnectionChange: (@Sendable (LedgerConnectionState) -> Void)? = nil, waitsAtOpen: Bool = false
    ) {
      self.waitsAtOpen = waitsAtOpen
      self.readOnly = readOnly
      self.retries = retries
      self.reconnect = reconnect
      self.onConnectionChange = onConnectionChange
    }
  }

  /// The schema version this build writes.
  public static var schemaVersion: Int { PostgreSQLSchema.currentVersion }

  /// The database, as messages show it (no password).
  public let name: String
  /// Always empty: a database has no file modes to fix. For symmetry with ``SQLiteLedgerStore``.
  public let warnings: [String] = []

  /// Replaced by a new one when it is lost (``recover(from:)``).
  var connection: PostgreSQLConnection
  let reconnector: PostgreSQLReconnector<PostgreSQLConnection>
  /// The stamp (transaction id) of the open transaction's writes, once ``write(_:on:)`` made them:
  /// asked about when the connection is lost after COMMIT was sent.
  var pendingStamp: Int64?
  /// Whether the open transaction's COMMIT went out (what a loss then leaves in doubt).
  var commitSent = false
  /// Commits since this store last trimmed the commit log.
  var commitsSinceTrim = 0
  /// The stamps of this client's own commits not yet passed by a read of the commit log:
  /// ``changes(since:)`` reports other clients' commits only.
  var ownStamps: Set<UInt64> = []
  /// When the server this connection reached started (`pg_postmaster_start_time()`): a later value
  /// after a reconnect means it restarted, so a lost transaction's id may have been handed out again.
  var serverStarted: String?
  /// How many connections this store has had (1, then one more per reconnect): session-level locks
  /// such as the delivery lease went with each lost one, so their holders ask again.
  public internal(set) var connectionNumber = 1
  let options: Options
  let coder = LedgerJSONCoder()
  let recordCoder = LedgerJSONCoder(millisecondDates: true)
  /// The snapshots behind the last positions this store handed out (``changes(since:)``, ``load()``).
  var feedMarks: [PostgreSQLFeedMark] = []

  /// Connects to `address` and brings the schema up to ``schemaVersion`` if it is older.
  ///
  /// - Throws: ``LedgerError/unreachable(server:reason:)`` when the server can't be reached or
  ///   refuses the login, ``LedgerError/newerSchema(path:found:supported:)`` for a database of a
  ///   newer storefront, and the errors of a failed migration.
  public init(address: PostgreSQLAddress, options: Options = Options()) throws(LedgerError) {
    self.options = options
    let observer = options.onConnectionChange
    reconnector = PostgreSQLReconnector(policy: options.reconnect, report: { observer?($0) }) { () throws(PostgreSQLFailure) in
      try PostgreSQLConnection(address)
    }
    do {
      connection = try Self.connect(address, reconnector, waiting: options.waitsAtOpen)
    } catch {
      throw .unreachable(server: address.description, reason: error.description + Self.advice(after: reconnector))
    }
    name = connection.connectedName
    serverStarted = try? connection.execute(PostgreSQLSchema.selectServerStart).text(0, 0)
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

  // MARK: - Running statements

  /// Runs `body` outside a transaction block, mapping a failure to the user's error.
  @discardableResult
  func run<Value>(_ body: (PostgreSQLConnection) throws(PostgreSQLFailure) -> Value) throws(LedgerError) -> Value {
    while true {
      do {
        return try body(connection)
      } catch {
        // A statement outside a transaction block is a read or an idempotent write: run it again.
        guard error.isConnectionLoss else { throw LedgerError(error, name: name) }
        try recover(from: error)
      }
    }
  }

  /// Runs `body` between `begin` and `COMMIT`, again from the start (up to ``Options/retries``
  /// times) when it lost a serialization race or a deadlock; anything it throws rolls it back.
  /// With `begin` nil, `body` opens and ends the transaction itself (in the round trips of its
  /// statements: ``PostgreSQLConnection/pipeline(_:)``).
  @discardableResult
  ///
  /// A `body` that ends the transaction itself sets ``commitSent`` as it sends `COMMIT`; when the
  /// connection is lost after that, the transaction is looked up by its stamp and `ifLanded` is
  /// returned when it committed (nil: `body` runs again, and must then see its own landed writes
  /// for what they are, as a claim does).
  func transaction<Value>(
    _ begin: String? = "BEGIN", ifLanded landedValue: Value? = nil, _ body: (PostgreSQLConnection) throws(PostgreSQLFailure) -> Value
  ) throws(LedgerError) -> Value {
    var attempt = 0
    while true {
      pendingStamp = nil
      commitSent = false
      var sent: Value?
      do {
        if let begin { try connection.execute(begin) }
        let value = try body(connection)
        if begin != nil {
          sent = value
          commitSent = true
          try connection.execute("COMMIT")
        }
        return value
      } catch {
        if error.isConnectionLoss {
          // Reconnects; the value when the lost COMMIT landed after all, else the batch runs again.
          if let landed = try resolveLoss(error, committing: commitSent ? sent ?? landedValue : nil) { return landed }
          continue
        }
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
        if version == PostgreSQLSchema.historyColumnsVersion {
          try backfillHistoryColumns(on: connection)
          try connection.executeScript(PostgreSQLSchema.consumableUnitsTable)
          try connection.executeScript(PostgreSQLSchema.presentTables)
        }
      }
      try connection.execute(
        "INSERT INTO storefront_schema (version) VALUES ($1) ON CONFLICT (only_row) DO UPDATE SET version = excluded.version",
        [.int(Int64(supported))])
      return supported
    }
    if found > supported { throw .newerSchema(path: name, found: found, supported: supported) }
  }
}
