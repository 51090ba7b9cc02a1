import Foundation
import StoreEngine

/// Riding out a lost connection (DECISIONS §27): reconnect by the store's
/// ``PostgreSQLReconnectPolicy``, set the new session up as the first, and settle a transaction
/// whose COMMIT outcome the loss hid by asking the server about its transaction id.
extension PostgreSQLLedgerStore {
  /// The first connection: at once, or by the policy when the server is away (a client started
  /// during a restart waits for it rather than failing).
  static func connect(
    _ address: PostgreSQLAddress, _ reconnector: PostgreSQLReconnector<PostgreSQLConnection>, waiting: Bool
  ) throws(PostgreSQLFailure) -> PostgreSQLConnection {
    do {
      return try PostgreSQLConnection(address)
    } catch {
      guard waiting, error.isConnectionLoss, reconnector.policy.patience != nil else { throw error }
      return try reconnector.reconnect(after: error)
    }
  }

  /// What to do, after the reconnector's attempts (none: the first connect failed).
  static func advice(after reconnector: PostgreSQLReconnector<PostgreSQLConnection>) -> String {
    guard reconnector.failedAttempts > 0 else { return "" }
    return "; gave up after \(reconnector.failedAttempts) attempts: start the database or restore the network, then run the command again"
  }

  /// Replaces the lost connection and sets the new session up as the first was.
  ///
  /// - Throws: ``LedgerError/unreachable(server:reason:)`` when the policy's patience ran out
  ///   (or, interactive, no attempt was due), naming the database and what to do.
  func recover(from failure: PostgreSQLFailure) throws(LedgerError) {
    connection.close()
    do {
      let fresh = try reconnector.reconnect(after: failure)
      try prepareSession(fresh)
      connection = fresh
      connectionNumber += 1
      serverStarted = try? fresh.execute(PostgreSQLSchema.selectServerStart).text(0, 0)
    } catch {
      guard error.isConnectionLoss else { throw LedgerError(error, name: name) }
      guard reconnector.policy.patience != nil else {
        throw .unreachable(server: name, reason: "\(error.description); reconnecting (attempt \(reconnector.failedAttempts + 1))")
      }
      throw .unreachable(server: name, reason: error.description + Self.advice(after: reconnector))
    }
  }

  /// Session state a new connection needs (a read-only store's default); prepared statements, if
  /// any are added, belong here too.
  func prepareSession(_ connection: PostgreSQLConnection) throws(PostgreSQLFailure) {
    if options.readOnly { try connection.execute("SET default_transaction_read_only = on") }
  }

  /// After `failure` lost the connection inside ``transaction(_:_:)``: reconnects, then decides.
  /// Before COMMIT was sent (`sent` nil) the server rolled the transaction back, so it runs again
  /// (nil). After, the transaction's writes are stamped with its id, so `pg_xact_status` tells
  /// whether it landed: committed returns `sent` (the step is announced once), aborted or unknown
  /// runs the batch again. Puts are upserts by id and claims compare-and-set, so a re-run of a
  /// batch that did not land grants nothing twice.
  func resolveLoss<Value>(_ failure: PostgreSQLFailure, committing sent: Value?) throws(LedgerError) -> Value? {
    let lostBackend = connection.backendPID
    let startedBefore = serverStarted
    try recover(from: failure)
    guard let sent, let stamp = pendingStamp else { return nil }
    var terminated = false
    while true {
      let status: String?
      do {
        status = try connection.execute("SELECT pg_xact_status($1::xid8)", [.text(String(stamp))]).text(0, 0)
      } catch {
        // 22023 "transaction ID … is in the future": a crash restart lost the id with its
        // unflushed commit, so it did not land.
        if error.sqlState == "22023" { return nil }
        guard error.isConnectionLoss else { throw LedgerError(error, name: name) }
        try recover(from: error)
        continue
      }
      switch status {
      case "committed":
        // After a crash restart an id the crash lost may already be another client's: the commit is
        // ours only if its id was logged before the crash (below the recovery checkpoint's next id).
        if let startedBefore, serverStarted != startedBefore, try !loggedBeforeRestart(stamp) { return nil }
        return sent
      case "in progress" where !terminated:
        // The old session is still open on the server (a cut link it has not noticed yet): end it,
        // so the transaction either finishes committing or rolls back, then ask again.
        terminated = true
        do {
          try connection.execute("SELECT pg_terminate_backend($1, 10000)", [.int(Int64(lostBackend))])
        } catch {
          guard error.isConnectionLoss else { throw LedgerError(error, name: name) }
          try recover(from: error)
        }
      case "in progress":
        throw .unreachable(
          server: name, reason: "transaction \(stamp) is still open on the server after its session was ended; try the step again")
      default: return nil
      }
    }
  }

  /// Whether transaction id `stamp` is below the next id of the server's last checkpoint (right after
  /// a crash restart, the end-of-recovery checkpoint's): then the crash did not lose it.
  private func loggedBeforeRestart(_ stamp: Int64) throws(LedgerError) -> Bool {
    let text: String?
    do {
      text = try connection.execute(PostgreSQLSchema.selectCheckpointNextID).text(0, 0)
    } catch {
      throw LedgerError(error, name: name)
    }
    let parts = (text ?? "").split(separator: ":").compactMap { Int64($0) }
    guard parts.count == 2 else { return false }
    return stamp < (parts[0] << 32 | parts[1])
  }
}
