import Foundation
import StoreEngine

/// This client's owner session on a shared ledger, and the liveness of the others', by the
/// database's own notion of a live session: a session-level advisory lock per session id, held on a
/// connection of its own for as long as the client runs.
///
/// When the client dies (crash, SIGKILL, a closed laptop whose connection the server drops), the
/// server ends its backend and the lock goes with it; another client's `pg_try_advisory_lock` then
/// succeeds, so the session is dead and its purchase may be taken over. A session whose lock is
/// held is alive, on whichever machine it runs. When the database can't be asked, a session counts
/// as alive: a live purchase is never taken over by mistake, an abandoned one waits for the next
/// launch.
public final class PostgreSQLSessionLock: Sendable {
  /// This client's session id (the engine's ``AppSession/id``).
  public let id: String
  private let keeper: PostgreSQLSessionKeeper
  private var connection: Locked<PostgreSQLConnection> { keeper.connection }
  private let released = Locked(false)

  /// Connects to `address` and takes the lock of session `id`.
  ///
  /// - Throws: ``LedgerError/unreachable(server:reason:)`` when the server can't be reached, and
  ///   ``LedgerError/busy(path:)`` when another live client holds the same session id.
  ///
  /// A lost connection is got back and the lock taken again by itself; `onProblem` hears when that
  /// cannot be done.
  public init(address: PostgreSQLAddress, id: String, onProblem: @escaping @Sendable (String) -> Void = { _ in }) throws(LedgerError) {
    self.id = id
    // Opened just after the ledger's own connection: a server going down in between (a restart)
    // is waited for as the ledger's is, rather than failing the launch.
    let reconnector = PostgreSQLReconnector(policy: .commandLine, report: { _ in }) { () throws(PostgreSQLFailure) in
      try PostgreSQLConnection(address)
    }
    var opened: PostgreSQLConnection
    do throws(PostgreSQLFailure) {
      do throws(PostgreSQLFailure) {
        opened = try PostgreSQLConnection(address)
      } catch {
        guard error.isConnectionLoss else { throw error }
        opened = try reconnector.reconnect(after: error)
      }
    } catch {
      throw .unreachable(server: address.description, reason: error.description)
    }
    var taken = false
    var recoveries = 0
    while true {
      do throws(PostgreSQLFailure) {
        taken = try opened.execute("SELECT pg_try_advisory_lock($1)", [.int(Self.key(of: id))]).text(0, 0) == "t"
        break
      } catch {
        guard error.isConnectionLoss, recoveries < 3 else { throw LedgerError(error, name: opened.connectedName) }
        recoveries += 1
        opened.close()
        do throws(PostgreSQLFailure) {
          opened = try reconnector.reconnect(after: error)
        } catch {
          throw .unreachable(server: address.description, reason: error.description)
        }
      }
    }
    guard taken else {
      throw .cannotOpen(path: opened.connectedName, reason: "another running storefront already holds session '\(id)'; close it and try again")
    }
    keeper = PostgreSQLSessionKeeper(connection: opened, address: address, key: Self.key(of: id), report: onProblem)
  }

  deinit { keeper.stop() }

  /// The locks this process holds, by connection string and session id.
  private static let held = Locked<[String: PostgreSQLSessionLock]>([:])

  /// The lock of session `id` on `address`, taken once per process: a second store of the same
  /// process (the TUI's own server) shares the first's, where a second lock would find it taken.
  public static func acquire(
    address: PostgreSQLAddress, id: String, onProblem: @escaping @Sendable (String) -> Void = { _ in }
  ) throws(LedgerError) -> PostgreSQLSessionLock {
    let key = address.conninfo + "\u{0}" + id
    // Reused while reconnecting too: its keeper takes the lock again.
    if let lock = held.withLock({ $0[key] }), !lock.released.withLock({ $0 }) { return lock }
    let lock = try PostgreSQLSessionLock(address: address, id: id, onProblem: onProblem)
    held.withLock { $0[key] = lock }
    return lock
  }

  /// The server process holding the lock now (a new one after a reconnect).
  var backendPID: Int32 { connection.withLock { $0.backendPID } }

  /// Whether this lock's connection is still open (it holds the lock).
  public var isHeld: Bool { connection.withLock { $0.isOpen } }

  /// This client's ``AppSession``: its id, and liveness asked of the database.
  public var session: AppSession {
    AppSession(id: id, isAlive: { [self] other in isAlive(other) })
  }

  /// Whether the client of session `other` still holds its lock. Taking the lock to find out
  /// releases it again at once.
  public func isAlive(_ other: String) -> Bool {
    guard other != id else { return true }
    return connection.withLock { connection in
      let key = PostgreSQLValue.int(Self.key(of: other))
      guard let taken = try? connection.execute("SELECT pg_try_advisory_lock($1)", [key]).text(0, 0) else { return true }
      guard taken == "t" else { return true }
      _ = try? connection.execute("SELECT pg_advisory_unlock($1)", [key])
      return false
    }
  }

  /// Ends the session: its lock is released, so its purchases count as abandoned.
  public func release() {
    released.withLock { $0 = true }
    keeper.stop()
    connection.withLock { connection in
      // Unlocked before the connection closes: a closed connection's backend lets go only once it
      // has read the goodbye, a moment later.
      _ = try? connection.execute("SELECT pg_advisory_unlock_all()")
      connection.close()
    }
  }

  /// The advisory lock key of a session id: 64-bit FNV-1a of the id.
  static func key(of id: String) -> Int64 {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "storefront-session:\(id)".utf8 {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
    return Int64(bitPattern: value)
  }
}
