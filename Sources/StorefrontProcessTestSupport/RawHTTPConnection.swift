import Foundation

/// A blocking TCP connection for the tests, with bounded waits: raw bytes out, responses back
/// (status line, headers, a `Content-Length` body), to drive `storefront serve` below any HTTP library.
public final class RawHTTPConnection {
  /// One response.
  public struct Response: Sendable {
    public var status: Int
    /// By lower-cased name.
    public var headers: [String: String]
    public var body: Data
    public var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// A socket error, a timeout or a response cut short.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  private let descriptor: Int32
  private var buffered = Data()

  /// Connects to `host:port` (IPv4).
  public init(port: UInt16, host: String = "127.0.0.1") throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    _ = inet_pton(AF_INET, host, &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
      close(descriptor)
      throw Failure(description: "connect: \(errno)")
    }
  }

  deinit { close(descriptor) }

  /// Sends `text` as UTF-8.
  public func send(_ text: String) throws { try send(Data(text.utf8)) }

  /// Sends every byte of `data`.
  public func send(_ data: Data) throws {
    var offset = 0
    while offset < data.count {
      let sent = data.withUnsafeBytes { raw in
        raw.baseAddress.map { Glibc.send(descriptor, $0 + offset, raw.count - offset, Int32(MSG_NOSIGNAL)) } ?? -1
      }
      guard sent > 0 else { throw Failure(description: "send: \(errno)") }
      offset += sent
    }
  }

  /// Reads one response (status line, headers, `Content-Length` body), waiting at most `timeout` seconds per read.
  public func receive(timeout: Double = 5) throws -> Response {
    while buffered.range(of: Data("\r\n\r\n".utf8)) == nil {
      guard try readMore(timeout: timeout) else { throw Failure(description: "closed before a response") }
    }
    guard let end = buffered.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no header end") }
    let head = String(decoding: buffered[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = head[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(head[0])") }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    let bodyStart = end.upperBound
    while buffered.count - (bodyStart - buffered.startIndex) < length {
      guard try readMore(timeout: timeout) else { throw Failure(description: "closed inside a body") }
    }
    let body = buffered[bodyStart..<(bodyStart + length)]
    buffered = Data(buffered[(bodyStart + length)...])
    return Response(status: status, headers: headers, body: Data(body))
  }

  /// True when the peer closes the connection within `timeout` seconds without sending anything more.
  public func closesWithoutAnswer(timeout: Double = 5) throws -> Bool {
    try !readMore(timeout: timeout) && buffered.isEmpty
  }

  /// Reads what is there; false at end of stream (or a reset). Throws when nothing comes within `timeout`.
  private func readMore(timeout: Double) throws -> Bool {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { throw Failure(description: "timed out after \(timeout)s") }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = recv(descriptor, &chunk, chunk.count, 0)
    guard count > 0 else { return false }
    buffered.append(contentsOf: chunk[0..<count])
    return true
  }
}
