import Foundation
import StoreEngine
import StorefrontLive

/// Calls `wake` on its own thread whenever another client commits to the store's ledger, so the TUI
/// takes the commit in at once: the process's ``LedgerWatcher`` (inotify on the SQLite data
/// directory, `LISTEN` on a shared PostgreSQL ledger; DECISIONS §41). An idle screen costs no CPU
/// here; the one-second tick, which moves the clock, refreshes too, as the fallback.
final class LedgerWake: Sendable {
  private let watcher: LedgerWatcher
  private let stopped = Locked(false)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts watching `store`'s ledger; nil when the watcher can't open or connect (the tick then
  /// refreshes alone).
  init?(store: LiveStore, wake: @escaping @Sendable () -> Void) {
    do {
      watcher = try store.location.watcher(ignoring: store.ledger)
    } catch {
      return nil
    }
    let thread = Thread { [watcher, stopped, finished] in
      defer { finished.signal() }
      while !stopped.withLock({ $0 }) {
        if watcher.wait(upTo: .seconds(30)) { wake() }
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
    watcher.interrupt()
    finished.wait()
  }
}
