import Foundation
import PostgreSQLLedger
import SQLiteLedger
import StoreEngine

/// What a live process reads and writes through, whichever ledger it is.
public protocol LiveLedger: LedgerStore, NotificationOutbox {
  /// Problems fixed while opening, for the user.
  var warnings: [String] { get }
  /// The notification URL set for `environment`, if any.
  func notificationURL(environment: String) throws(LedgerError) -> String?
  /// The virtual clock as last committed, if any process set it.
  func virtualClock() throws(LedgerError) -> Date?
  /// A value that changes whenever another connection commits, for caches of what was read; nil
  /// when the ledger has none to give cheaply (then nothing read may be reused).
  func changeToken() -> Int64?
  func close()
}

extension SQLiteLedgerStore: LiveLedger {
  public func changeToken() -> Int64? { try? dataVersion() }
}

extension PostgreSQLLedgerStore: LiveLedger {
  // No cheap per-connection commit counter like SQLite's `data_version`: whoever caches reads the
  // shared ledger again each time.
  public func changeToken() -> Int64? { nil }
}

/// Where the ledger is: SQLite in a data directory (the default), or a shared PostgreSQL database
/// (`--ledger` or `$STOREFRONT_LEDGER`). The one place a live process (the CLI's commands, `serve`,
/// the TUI, the `StoreKit` library's attached app) chooses and opens its ledger, its owner session
/// and the watcher that wakes it on another process's commit (DECISIONS §41).
public enum LedgerLocation: Equatable, Sendable {
  case sqlite(directory: URL)
  case postgresql(PostgreSQLAddress)

  /// `ledger` (an explicit `--ledger`), else `$STOREFRONT_LEDGER`, else `dataDirectory`'s SQLite file.
  ///
  /// - Throws: ``LedgerError/cannotOpen(path:reason:)`` when `$STOREFRONT_LEDGER` is not a
  ///   PostgreSQL URI (the value is not repeated: it may hold a password).
  public static func resolve(ledger: String?, dataDirectory: String, environment: [String: String]) throws(LedgerError) -> LedgerLocation {
    if let uri = ledger { return .postgresql(PostgreSQLAddress(uri)) }
    if let uri = environment["STOREFRONT_LEDGER"], !uri.isEmpty {
      guard PostgreSQLAddress.isPostgreSQL(uri) else {
        throw .cannotOpen(
          path: "$STOREFRONT_LEDGER",
          reason: "it is not a postgresql:// URI; set it to postgresql://user@host/database, or unset it to use the data directory's ledger")
      }
      return .postgresql(PostgreSQLAddress(uri))
    }
    return .sqlite(directory: URL(fileURLWithPath: dataDirectory, isDirectory: true))
  }

  /// The ledger as messages name it: the file, or `postgresql://user@host:port/db` (no password).
  public var displayName: String {
    switch self {
    case .sqlite(let directory): directory.appendingPathComponent(SQLiteLedgerStore.fileName).path
    case .postgresql(let address): address.description
    }
  }

  /// Whether there is a ledger to read yet (a database always counts: its schema is made on open).
  public var exists: Bool {
    switch self {
    case .sqlite: FileManager.default.fileExists(atPath: displayName)
    case .postgresql: true
    }
  }

  public var isShared: Bool { if case .postgresql = self { true } else { false } }

  /// Opens the ledger (a SQLite ledger's directory is made, 0700, if missing). A shared one
  /// reconnects by `reconnect` when its connection is lost, telling `onConnectionChange`.
  public func open(
    readOnly: Bool = false, reconnect: PostgreSQLReconnectPolicy = .commandLine,
    onConnectionChange: (@Sendable (LedgerConnectionState) -> Void)? = nil, waitsAtOpen: Bool = false
  ) throws(LedgerError) -> any LiveLedger {
    switch self {
    case .sqlite(let directory):
      readOnly
        ? try SQLiteLedgerStore(fileURL: URL(fileURLWithPath: displayName), options: .init(readOnly: true))
        : try SQLiteLedgerStore(directory: directory)
    case .postgresql(let address):
      try PostgreSQLLedgerStore(
        address: address, options: .init(readOnly: readOnly, reconnect: reconnect, onConnectionChange: onConnectionChange, waitsAtOpen: waitsAtOpen))
    }
  }

  /// This process's owner session: on SQLite liveness from `/proc` (one machine); on PostgreSQL a
  /// session advisory lock held for the life of the process (any machine, DECISIONS §24; the
  /// session keeps its lock).
  public func session(onProblem: @escaping @Sendable (String) -> Void = { _ in }) throws(LedgerError) -> AppSession {
    let local = ProcessSession().current()
    switch self {
    case .sqlite: return local
    case .postgresql(let address):
      return try PostgreSQLSessionLock.acquire(address: address, id: local.id, onProblem: onProblem).session
    }
  }

  /// The watcher that wakes this process on another's commit to the ledger `store` (opened here)
  /// writes to: inotify on the data directory, or `LISTEN` on a connection of its own, ignoring
  /// `store`'s own notifications.
  public func watcher(ignoring store: any LedgerStore) throws(LedgerError) -> LedgerWatcher {
    switch self {
    case .sqlite(let directory): try LedgerWatcher(directory: directory)
    case .postgresql(let address): try LedgerWatcher(address: address, ignoring: store as? PostgreSQLLedgerStore)
    }
  }
}
