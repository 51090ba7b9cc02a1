import Foundation

/// Reads the address `storefront serve --ready-file FIFO` writes once it listens.
public enum ReadyFile {
  /// Why no address came.
  public struct Timeout: Error, CustomStringConvertible {
    public let description: String
  }

  /// The `ADDR:PORT` written to the FIFO at `path`, waiting at most `seconds` for it.
  public static func address(fromFIFO path: String, seconds: Int32 = 60) throws -> String {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK)
    guard descriptor >= 0 else { throw Timeout(description: "cannot open '\(path)': \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, seconds * 1000) == 1 else { throw Timeout(description: "serve did not write its ready file within \(seconds) s") }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(descriptor, &buffer, buffer.count)
    return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
