import Foundation
import StoreEngine

extension PostgreSQLChangeListener {
  /// Opens a new connection and `LISTEN`s again after the old one was lost, trying with the
  /// interactive back-off (100 ms doubling to 5 s) for at most `timeout`; an ``interrupt()`` ends
  /// the wait early. True once listening again (a commit may have been missed meanwhile).
  func relisten(within timeout: Duration) throws(LedgerError) -> Bool {
    let policy = PostgreSQLReconnectPolicy.interactive
    let deadline = ContinuousClock.now + timeout
    var lastError = "the connection was lost"
    while true {
      let delay = policy.delay(before: failedAttempts.withLock { $0 } + 1)
      guard ContinuousClock.now + delay <= deadline else {
        throw .unreachable(server: address.description, reason: "\(lastError); listening again at the next wait")
      }
      if pause(delay) {
        throw .unreachable(server: address.description, reason: "\(lastError); interrupted while reconnecting")
      }
      do {
        let fresh = try PostgreSQLConnection(address)
        try fresh.execute("LISTEN \(PostgreSQLSchema.channel)")
        connection.withLock { old in
          old.close()
          old = fresh
        }
        failedAttempts.withLock { $0 = 0 }
        return true
      } catch {
        lastError = error.description
        failedAttempts.withLock { $0 += 1 }
      }
    }
  }
}
