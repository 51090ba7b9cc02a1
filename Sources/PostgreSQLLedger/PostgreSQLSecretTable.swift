import Foundation
import StoreEngine

/// Named values kept in the shared database beside the ledger, so every machine uses the same ones:
/// the sandbox CA, the promotional-offer key (table `storefront_secrets`, created by the first
/// client under the migration lock). Values are text; a caller encrypts what must not be stored
/// in the clear (private keys) before it puts them.
///
/// Its own connection, got back after a loss as the ledger's is (``PostgreSQLReconnectPolicy``,
/// DECISIONS §27): a read or a put runs again on the new one, a ``withLock(_:)`` body from its
/// start. Thread-safe (one lock, recursive, so a body under ``withLock(_:)`` may read and write).
public final class PostgreSQLSecretTable: @unchecked Sendable {
  /// The database, as messages show it (no password).
  public let name: String
  private var connection: PostgreSQLConnection
  private let reconnector: PostgreSQLReconnector<PostgreSQLConnection>
  private let lock = NSRecursiveLock()
  private var inTransaction = false
  /// A lost connection is got back at most this many times per call (each by the policy's back-off).
  private static let recoveries = 3

  /// The advisory lock under which a first client creates what others must not create twice.
  private static let creationLock: Int64 = 0x5346_4B59

  /// Connects to `address` and creates the table if it is missing; a server that is away (a
  /// restart) is waited for by `reconnect`, as the ledger's own connection is.
  public init(address: PostgreSQLAddress, reconnect: PostgreSQLReconnectPolicy = .commandLine) throws(LedgerError) {
    let reconnector = PostgreSQLReconnector(policy: reconnect, report: { _ in }) { () throws(PostgreSQLFailure) in
      try PostgreSQLConnection(address)
    }
    self.reconnector = reconnector
    do throws(PostgreSQLFailure) {
      do throws(PostgreSQLFailure) {
        connection = try PostgreSQLConnection(address)
      } catch {
        guard error.isConnectionLoss, reconnect.patience != nil else { throw error }
        connection = try reconnector.reconnect(after: error)
      }
    } catch {
      throw .unreachable(server: address.description, reason: error.description)
    }
    name = connection.connectedName
    try running { connection throws(PostgreSQLFailure) in
      do throws(PostgreSQLFailure) {
        try connection.execute("BEGIN")
        try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int(PostgreSQLSchema.migrationLock)])
        try connection.execute("CREATE TABLE IF NOT EXISTS storefront_secrets (name text PRIMARY KEY, value text NOT NULL)")
        try connection.execute("COMMIT")
      } catch {
        if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
        throw error
      }
    }
  }

  deinit { connection.close() }

  /// Runs `body` in one transaction holding the table's advisory lock: other clients wait, so two
  /// first runs on two machines create one CA. Puts inside it commit together with it.
  public func withLock<Result>(_ body: () throws -> Result) throws -> Result {
    lock.lock()
    defer { lock.unlock() }
    var recovered = 0
    while true {
      do {
        return try lockedTransaction(body)
      } catch let failure as PostgreSQLFailure where failure.isConnectionLoss && recovered < Self.recoveries {
        recovered += 1
        try recover(from: failure)
      } catch let failure as PostgreSQLFailure {
        throw LedgerError(failure, name: name)
      }
    }
  }

  /// One try of ``withLock(_:)``: a lost connection is thrown as the ``PostgreSQLFailure`` it was
  /// (also when a read or put of `body` met it), so the caller can reconnect and run it again.
  private func lockedTransaction<Result>(_ body: () throws -> Result) throws -> Result {
    try connection.execute("BEGIN")
    do {
      try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int(Self.creationLock)])
    } catch {
      if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
      throw error
    }
    inTransaction = true
    defer { inTransaction = false }
    let result: Result
    do {
      result = try body()
    } catch {
      if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
      if case .unreachable = error as? LedgerError, let lost = lostInTransaction { throw lost }
      throw error
    }
    try connection.execute("COMMIT")
    return result
  }

  /// The connection-loss failure a read or put inside ``withLock(_:)`` met, kept so the whole body runs again.
  private var lostInTransaction: PostgreSQLFailure?

  private func recover(from failure: PostgreSQLFailure) throws(LedgerError) {
    lostInTransaction = nil
    connection.close()
    do {
      connection = try reconnector.reconnect(after: failure)
    } catch {
      throw .unreachable(server: name, reason: error.description)
    }
  }

  /// Runs `body` on the connection, on a new one after a loss (outside ``withLock(_:)``; inside it
  /// the loss is kept for ``withLock(_:)`` to run its whole body again).
  private func running<Value>(_ body: (PostgreSQLConnection) throws(PostgreSQLFailure) -> Value) throws(LedgerError) -> Value {
    var recovered = 0
    while true {
      do {
        return try body(connection)
      } catch {
        guard error.isConnectionLoss else { throw LedgerError(error, name: name) }
        if inTransaction {
          lostInTransaction = error
          throw LedgerError(error, name: name)
        }
        guard recovered < Self.recoveries else { throw LedgerError(error, name: name) }
        recovered += 1
        try recover(from: error)
      }
    }
  }

  /// The stored values among `names`, by name.
  public func values(_ names: [String]) throws(LedgerError) -> [String: String] {
    lock.lock()
    defer { lock.unlock() }
    return try running { connection throws(PostgreSQLFailure) in
      var found: [String: String] = [:]
      for item in names {
        if let value = try connection.execute("SELECT value FROM storefront_secrets WHERE name = $1", [.text(item)]).text(0, 0) {
          found[item] = value
        }
      }
      return found
    }
  }

  /// Stores `items` (replacing those of the same names) in one transaction, or in ``withLock(_:)``'s.
  public func put(_ items: [(name: String, value: String)]) throws(LedgerError) {
    lock.lock()
    defer { lock.unlock() }
    let own = !inTransaction
    try running { connection throws(PostgreSQLFailure) in
      do throws(PostgreSQLFailure) {
        if own { try connection.execute("BEGIN") }
        for item in items {
          try connection.execute(
            "INSERT INTO storefront_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            [.text(item.name), .text(item.value)])
        }
        if own { try connection.execute("COMMIT") }
      } catch {
        if own, connection.isOpen { _ = try? connection.execute("ROLLBACK") }
        throw error
      }
    }
  }
}
