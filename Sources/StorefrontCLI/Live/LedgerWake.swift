import Foundation
import PostgreSQLLedger
import StoreEngine

/// Calls `wake` on its own thread whenever another client commits to a shared PostgreSQL ledger
/// (`LISTEN`), so the TUI refreshes at once instead of at its next one-second tick, which stays the
/// fallback poll for a missed notification or while the listener reconnects. On SQLite it does nothing:
/// the tick reads the change feed.
final class LedgerWake: Sendable {
  private let listener: PostgreSQLChangeListener?
  private let stopped = Locked(false)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts listening for `store`'s shared ledger; nil when it is not shared or the listener can't
  /// connect (the tick then polls alone).
  init?(store: LiveStore, wake: @escaping @Sendable () -> Void) {
    guard case .postgresql(let address) = store.location,
      let listener = try? PostgreSQLChangeListener(address: address, ignoring: store.ledger as? PostgreSQLLedgerStore)
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
