import Foundation
import StoreEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Calls `changed` on a thread of its own when one file is written, replaced, moved or removed:
/// inotify on its directory, filtered by the file's name (an atomic save, the editor's own among
/// them, renames a new file over it, which a watch on the file itself would not see). Waiting
/// costs no CPU; the TUI's Catalog pane hears of another process's edit this way instead of
/// looking at the file every tick.
public final class FileWatch: Sendable {
  private let inotify: Int32
  /// A pipe: ``stop()`` writes its second end to end the thread's wait on its first.
  private let wakeup: Int32
  private let wakeupWriter: Int32
  private let finished = DispatchSemaphore(value: 0)
  private let stopped = Locked(false)

  /// Watches the file at `path`; nil when inotify or the pipe cannot be had (nothing is watched).
  public init?(path: String, changed: @escaping @Sendable () -> Void) {
    let url = URL(fileURLWithPath: path)
    let name = url.lastPathComponent
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return nil }
    let events = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
    var ends: [Int32] = [-1, -1]
    guard inotify_add_watch(descriptor, url.deletingLastPathComponent().path, UInt32(events)) >= 0, pipe(&ends) == 0 else {
      close(descriptor)
      return nil
    }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    inotify = descriptor
    wakeup = ends[0]
    wakeupWriter = ends[1]
    let thread = Thread { [inotify, wakeup, finished, stopped] in
      defer { finished.signal() }
      var buffer = [UInt8](repeating: 0, count: 4096)
      while !stopped.withLock({ $0 }) {
        var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 2, -1) > 0 else { continue }
        if descriptors[1].revents != 0 { return }
        var touched = false
        while true {
          let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
          guard count > 0 else { break }
          touched = touched || Self.names(in: buffer, count: count).contains(name)
        }
        if touched { changed() }
      }
    }
    thread.name = "file-watch"
    thread.start()
  }

  deinit {
    stop()
    close(inotify)
    close(wakeup)
    close(wakeupWriter)
  }

  /// Ends the thread; safe to call twice.
  public func stop() {
    let first = stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    var one: UInt8 = 1
    _ = write(wakeupWriter, &one, 1)
    finished.wait()
  }

  /// The names of the `inotify_event`s in the first `count` bytes of `buffer`.
  static func names(in buffer: [UInt8], count: Int) -> [String] {
    var names: [String] = []
    let header = MemoryLayout<inotify_event>.size
    var offset = 0
    while offset + header <= count {
      let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
      let start = offset + header
      let end = min(count, start + length)
      if length > 0, start < end {
        let bytes = buffer[start..<end].prefix { $0 != 0 }
        names.append(String(decoding: bytes, as: UTF8.self))
      }
      offset = start + length
    }
    return names
  }
}
