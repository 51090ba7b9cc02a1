import Foundation
import StoreEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps a ``PostgreSQLSessionLock`` held across a lost connection (DECISIONS §27): a thread
/// watches the lock's connection and, when it is gone (a restart, a cut link the server noticed),
/// reconnects with back-off and takes the session's advisory lock again.
///
/// While the lock is gone the session looks dead to other clients, which may take over its
/// purchase meanwhile; a re-taken lock cannot undo that (the purchase's owner in the ledger then
/// names the other client). When the lock cannot be re-taken (another process holds it) that is
/// reported.
final class PostgreSQLSessionKeeper: Sendable {
  let connection: Locked<PostgreSQLConnection>
  private let address: PostgreSQLAddress
  private let key: Int64
  private let report: @Sendable (String) -> Void
  private let stopped = Locked(false)
  private let finished = DispatchSemaphore(value: 0)
  private let wakeUp = DispatchSemaphore(value: 0)

  init(connection: PostgreSQLConnection, address: PostgreSQLAddress, key: Int64, report: @escaping @Sendable (String) -> Void) {
    self.connection = Locked(connection)
    self.address = address
    self.key = key
    self.report = report
    let thread = Thread { [self] in
      defer { finished.signal() }
      watch()
    }
    thread.name = "ledger-session"
    thread.start()
  }

  /// Ends the watch (and waits for its thread); safe to call twice.
  func stop() {
    let first = stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    wakeUp.signal()
    finished.wait()
  }

  private var isStopped: Bool { stopped.withLock { $0 } }

  private func watch() {
    let policy = PostgreSQLReconnectPolicy.interactive
    var failed = 0
    while !isStopped {
      let socket = connection.withLock { $0.socket }
      if socket >= 0 {
        var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, 250)
        // Readable: a notice, or the end of the connection; reading tells which.
        let alive = connection.withLock { connection in
          fds[0].revents == 0 ? connection.isOpen : (try? connection.notifications()) != nil && connection.isOpen
        }
        if alive { continue }
      }
      failed += 1
      if wakeUp.wait(timeout: .now() + policy.delay(before: failed).seconds) == .success || isStopped { return }
      if retake() { failed = 0 }
    }
  }

  /// One attempt: a new connection and the session's lock on it; true when both were had.
  private func retake() -> Bool {
    guard let fresh = try? PostgreSQLConnection(address) else { return false }
    // Another client asking whether the session is alive holds the lock for a moment: try a few times.
    for _ in 0..<20 {
      guard let taken = try? fresh.execute("SELECT pg_try_advisory_lock($1)", [.int(key)]).text(0, 0) else { return false }
      if taken == "t" {
        connection.withLock { old in
          old.close()
          old = fresh
        }
        return true
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    report("another client holds this session's lock on \(fresh.connectedName); its purchases may have been taken over")
    return false
  }
}
