import Foundation
import PostgreSQLLedger
import SQLiteLedger
import StoreEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The one thing that wakes a process when another process or host commits to its ledger
/// (DECISIONS §41): the TUI's refresh, an attached app's follower and its waiting sheets all block
/// here, on a connection of the watcher's own.
///
/// On SQLite it blocks in inotify on the data directory (a commit writes the WAL file) and confirms
/// with `data_version` (the commit is visible microseconds after its last write, so after a write it
/// looks again at 1, 2, 5, 10 and 20 ms before blocking); where inotify is not available it reads
/// `data_version` every ``fallbackInterval``. On PostgreSQL it `LISTEN`s. Waiting costs no CPU
/// until something is committed; ``interrupt()`` ends a wait at once from any thread (a pipe).
public final class LedgerWatcher: @unchecked Sendable {
  // `wait(upTo:)` is called by one thread at a time; `interrupt()` from any.
  private let sqlite: SQLiteLedgerStore?
  private let listener: PostgreSQLChangeListener?
  /// inotify on the data directory; -1 without one.
  private let notify: Int32
  /// A pipe: ``interrupt()`` writes its second end to end a blocking wait on its first.
  private let wakeup: Int32
  private let wakeupWriter: Int32
  private var version: Int64?
  /// Looks left at `data_version` after the last write seen.
  private var hotRounds = 0
  /// When to look at `data_version` after a write to the WAL, in ms: the commit is visible only once
  /// the writer's fsync returned and it updated the WAL index, which is shared memory and makes no
  /// inotify event of its own. Under load that fsync took over 20 ms, and a wake whose looks ended
  /// before it missed the commit until the next fallback look (issue 35's `commit_view`: 1 in 200).
  static let hotPolls: [Int32] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
  /// How often `data_version` is read where there is no inotify.
  public static let fallbackInterval: TimeInterval = 0.02

  /// Watches the SQLite ledger in `directory`.
  public init(directory: URL) throws(LedgerError) {
    let watcher = try SQLiteLedgerStore(directory: directory, options: .init(readOnly: true, checkAtOpen: false))
    sqlite = watcher
    listener = nil
    version = try? watcher.dataVersion()
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    if descriptor >= 0, inotify_add_watch(descriptor, directory.path, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) < 0 {
      close(descriptor)
      notify = -1
    } else {
      notify = descriptor
    }
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
    } else {
      ends = [-1, -1]
    }
    wakeup = ends[0]
    wakeupWriter = ends[1]
  }

  /// Listens on the shared PostgreSQL ledger at `address`; `store`'s own commits do not wake it.
  public init(address: PostgreSQLAddress, ignoring store: PostgreSQLLedgerStore?) throws(LedgerError) {
    sqlite = nil
    notify = -1
    wakeup = -1
    wakeupWriter = -1
    listener = try PostgreSQLChangeListener(address: address, ignoring: store)
  }

  deinit {
    sqlite?.close()
    listener?.interrupt()
    if notify >= 0 { close(notify) }
    if wakeup >= 0 { close(wakeup) }
    if wakeupWriter >= 0 { close(wakeupWriter) }
  }

  /// Blocks until another process may have committed (true) or `timeout` passed, or
  /// ``interrupt()`` was called (false).
  public func wait(upTo timeout: Duration) -> Bool {
    if let listener {
      // A lost connection is listened on again inside `wait`; the time-out is then a look too.
      return (try? listener.wait(timeout: timeout)) ?? true
    }
    let deadline = ContinuousClock.now + timeout
    while true {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { return false }
      let blocking = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
      if notify >= 0 {
        var descriptors = [pollfd(fd: notify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)]
        let wait = hotRounds > 0 ? Self.hotPolls[Self.hotPolls.count - hotRounds] : blocking
        hotRounds = max(0, hotRounds - 1)
        if poll(&descriptors, 2, min(wait, max(blocking, 1))) > 0 {
          if descriptors[1].revents != 0 {
            drainWakeup()
            return false
          }
          drainNotify()
          hotRounds = Self.hotPolls.count
        }
      } else {
        var descriptor = pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)
        if wakeup >= 0, poll(&descriptor, 1, min(blocking, Int32(Self.fallbackInterval * 1000))) > 0 {
          drainWakeup()
          return false
        } else if wakeup < 0 {
          Thread.sleep(forTimeInterval: Self.fallbackInterval)
        }
      }
      let now = try? sqlite?.dataVersion()
      if now != version {
        version = now
        // The same commit's other writes (the WAL index, more WAL pages) are this wake's too: they
        // do not start another round of looks. A commit right behind it (an app writes its purchase,
        // then its sheet's quote) may be drained with them, so the next wait looks again a few times
        // before it blocks: the TUI's tick no longer reads the change feed every second to catch it.
        if notify >= 0 { drainNotify() }
        hotRounds = Self.hotPolls.count
        return true
      }
    }
  }

  /// Ends the wait in progress (or the next one) at once.
  public func interrupt() {
    listener?.interrupt()
    if wakeupWriter >= 0 {
      var one: UInt8 = 1
      _ = write(wakeupWriter, &one, 1)
    }
  }

  private func drainNotify() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while buffer.withUnsafeMutableBytes({ read(notify, $0.baseAddress, $0.count) }) > 0 {}
  }

  private func drainWakeup() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while buffer.withUnsafeMutableBytes({ read(wakeup, $0.baseAddress, $0.count) }) > 0 {}
  }
}
