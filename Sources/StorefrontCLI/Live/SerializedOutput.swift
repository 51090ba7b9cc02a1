import Foundation

/// Standard output shared by libmicrohttpd's threads: one whole line at a time.
final class SerializedOutput: @unchecked Sendable {
  // @unchecked: `io` is only used under `lock`.
  private let io: any ConsoleIO
  private let lock = NSLock()

  init(_ io: any ConsoleIO) { self.io = io }

  func line(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    io.line(text)
  }
}
