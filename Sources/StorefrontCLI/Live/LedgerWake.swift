import Foundation
import PostgreSQLLedger
import SQLiteLedger
import StoreEngine

/// Calls `wake` on its own thread whenever another client commits to the store's ledger, so the TUI
/// refreshes at once instead of at its next one-second tick, which stays the fallback poll. On a
/// shared PostgreSQL ledger it `LISTEN`s; on SQLite it reads `data_version` (shared memory, no page)
/// on a read-only connection of its own every 20 ms, as an attached app waiting for a sheet's
/// answer does (DECISIONS §37): another process's purchase sheet is on screen within that.
final class LedgerWake: Sendable {
  private let listener: PostgreSQLChangeListener?
  private let stopped = Locked(false)
  private let finished = DispatchSemaphore(value: 0)
  static let sqliteInterval: TimeInterval = 0.02

  /// Starts listening for `store`'s ledger; nil when the listener can't connect or open (the tick
  /// then polls alone).
  init?(store: LiveStore, wake: @escaping @Sendable () -> Void) {
    guard case .postgresql(let address) = store.location else {
      listener = nil
      let stopped = self.stopped
      let finished = self.finished
      let directory = store.directory
      let thread = Thread {
        defer { finished.signal() }
        // Its own connection, made on its thread: it reads nothing but `data_version`.
        guard let watcher = try? SQLiteLedgerStore(directory: directory, options: .init(readOnly: true, checkAtOpen: false))
        else { return }
        var seen = try? watcher.dataVersion()
        while !stopped.withLock({ $0 }) {
          Thread.sleep(forTimeInterval: Self.sqliteInterval)
          let now = try? watcher.dataVersion()
          if now != seen {
            seen = now
            wake()
          }
        }
        watcher.close()
      }
      thread.name = "ledger-wake"
      thread.start()
      return
    }
    guard let listener = try? PostgreSQLChangeListener(address: address, ignoring: store.ledger as? PostgreSQLLedgerStore)
    else { return nil }
    self.listener = listener
    let thread = Thread { [self] in
      defer { finished.signal() }
      while !stopped.withLock({ $0 }) {
        // A lost connection is listened on again inside `wait`; one it could not get back within
        // the wait is tried again by the next (the tick polls meanwhile).
        if (try? listener.wait(timeout: .seconds(30))) == true { wake() }
      }
    }
    thread.name = "ledger-wake"
    thread.start()
  }

  /// Ends the thread; safe to call twice.
  func stop() {
    let first = stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    listener?.interrupt()
    finished.wait()
  }
}
