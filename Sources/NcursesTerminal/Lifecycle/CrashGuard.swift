import CNcursesw
import Glibc
import Synchronization

/// Last-resort terminal restoration: at `exit` and on fatal signals.
///
/// A crash in curses mode would otherwise leave the shell in raw mode with the alternate screen
/// on. The fatal-signal handler calls `endwin` (not async-signal-safe, but the process is dying
/// and this is what curses' own handlers do), then reinstalls the previous handler (Swift's
/// backtracer, or the default) and re-raises, so the crash is still reported.
enum CrashGuard {
  /// Whether curses mode is on; exchanged to false by whoever restores first.
  static let cursesActive = Atomic<Bool>(false)
  private static let installed = Atomic<Bool>(false)
  static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
  /// Previous handlers, indexed by signal number; written once before the handlers go live.
  nonisolated(unsafe) private static let previousActions: UnsafeMutablePointer<sigaction> = {
    let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    pointer.initialize(repeating: sigaction(), count: 65)
    return pointer
  }()

  /// Installs the `atexit` and fatal-signal hooks (once per process).
  static func install() {
    guard !installed.exchange(true, ordering: .sequentiallyConsistent) else { return }
    atexit { CrashGuard.restoreTerminal() }
    for signal in fatalSignals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { signal in
        CrashGuard.restoreTerminal()
        _ = sigaction(signal, CrashGuard.previousActions + Int(signal), nil)
        _ = raise(signal)
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      _ = sigaction(signal, &action, previousActions + Int(signal))
    }
  }

  /// Leaves curses mode if it is on. Safe to call from any thread, more than once.
  static func restoreTerminal() {
    guard cursesActive.exchange(false, ordering: .sequentiallyConsistent) else { return }
    _ = mousemask(0, nil)
    _ = endwin()
  }
}
