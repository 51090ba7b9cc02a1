import Foundation
import StoreEngine

/// Named values kept in the shared database beside the ledger, so every machine uses the same ones:
/// the sandbox CA, the promotional-offer key (table `storefront_secrets`, created by the first
/// client under the migration lock). Values are text; a caller encrypts what must not be stored
/// in the clear (private keys) before it puts them.
///
/// Its own connection; thread-safe (one lock, recursive, so a body under ``withLock(_:)`` may read
/// and write).
public final class PostgreSQLSecretTable: @unchecked Sendable {
  /// The database, as messages show it (no password).
  public let name: String
  private let connection: PostgreSQLConnection
  private let lock = NSRecursiveLock()
  private var inTransaction = false

  /// The advisory lock under which a first client creates what others must not create twice.
  private static let creationLock: Int64 = 0x5346_4B59

  /// Connects to `address` and creates the table if it is missing.
  public init(address: PostgreSQLAddress) throws(LedgerError) {
    do {
      connection = try PostgreSQLConnection(address)
    } catch {
      throw .unreachable(server: address.description, reason: error.description)
    }
    name = connection.connectedName
    do throws(PostgreSQLFailure) {
      try connection.execute("BEGIN")
      try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int(PostgreSQLSchema.migrationLock)])
      try connection.execute("CREATE TABLE IF NOT EXISTS storefront_secrets (name text PRIMARY KEY, value text NOT NULL)")
      try connection.execute("COMMIT")
    } catch {
      if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
      throw LedgerError(error, name: name)
    }
  }

  deinit { connection.close() }

  /// Runs `body` in one transaction holding the table's advisory lock: other clients wait, so two
  /// first runs on two machines create one CA. Puts inside it commit together with it.
  public func withLock<Result>(_ body: () throws -> Result) throws -> Result {
    lock.lock()
    defer { lock.unlock() }
    do throws(PostgreSQLFailure) {
      try connection.execute("BEGIN")
      try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int(Self.creationLock)])
    } catch {
      if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
      throw LedgerError(error, name: name)
    }
    inTransaction = true
    defer { inTransaction = false }
    let result: Result
    do {
      result = try body()
    } catch {
      _ = try? connection.execute("ROLLBACK")
      throw error
    }
    do throws(PostgreSQLFailure) {
      try connection.execute("COMMIT")
    } catch {
      throw LedgerError(error, name: name)
    }
    return result
  }

  /// The stored values among `names`, by name.
  public func values(_ names: [String]) throws(LedgerError) -> [String: String] {
    lock.lock()
    defer { lock.unlock() }
    do throws(PostgreSQLFailure) {
      var found: [String: String] = [:]
      for item in names {
        if let value = try connection.execute("SELECT value FROM storefront_secrets WHERE name = $1", [.text(item)]).text(0, 0) {
          found[item] = value
        }
      }
      return found
    } catch {
      throw LedgerError(error, name: name)
    }
  }

  /// Stores `items` (replacing those of the same names) in one transaction, or in ``withLock(_:)``'s.
  public func put(_ items: [(name: String, value: String)]) throws(LedgerError) {
    lock.lock()
    defer { lock.unlock() }
    let own = !inTransaction
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
      throw LedgerError(error, name: name)
    }
  }
}
