import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Wakes a waiting thread when a file in a directory is written (inotify), when ``interrupt()`` is
/// called, or after a bounded wait, whichever comes first: how the deliverer hears of a commit by
/// any process within milliseconds, with a fallback for a missed event.
final class DirectoryWatch: @unchecked Sendable {
  private let inotify: Int32
  /// A self-pipe: ``interrupt()`` writes a byte, the waiter reads it.
  private let pipeRead: Int32
  private let pipeWrite: Int32

  /// Watches `directory`; throws the errno text when inotify or the pipe cannot be had.
  init(directory: URL) throws(DeliveryError) {
    inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard inotify >= 0 else { throw .watch(String(cString: strerror(errno))) }
    // Writes to ledger.sqlite-wal (a commit) and ledger.sqlite (a checkpoint); the clock is in the ledger too.
    guard inotify_add_watch(inotify, directory.path, UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)) >= 0 else {
      let reason = String(cString: strerror(errno))
      close(inotify)
      throw .watch(reason)
    }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      let reason = String(cString: strerror(errno))
      close(inotify)
      throw .watch(reason)
    }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    pipeRead = ends[0]
    pipeWrite = ends[1]
  }

  deinit {
    close(inotify)
    close(pipeRead)
    close(pipeWrite)
  }

  /// Blocks until a write in the directory, an interrupt, or `timeout`; drains what woke it and
  /// says whether a write did.
  @discardableResult
  func wait(timeout: Duration) -> Bool {
    var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0)]
    let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    _ = poll(&fds, 2, max(0, milliseconds))
    var buffer = [UInt8](repeating: 0, count: 4096)
    var written = false
    while read(inotify, &buffer, buffer.count) > 0 { written = true }
    while read(pipeRead, &buffer, buffer.count) > 0 {}
    return written
  }

  /// Wakes the waiter now (and the next wait, if none is waiting).
  func interrupt() {
    var byte: UInt8 = 1
    _ = write(pipeWrite, &byte, 1)
  }
}
