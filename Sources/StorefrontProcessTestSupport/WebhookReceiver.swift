import Foundation

/// A real HTTP receiver for notifications in tests: listens on 127.0.0.1 port 0, records every
/// request it reads (path, headers, body), and answers as told (a status, a hang, an early close).
/// One connection at a time, each answered with `Connection: close`; every wait is bounded.
public final class WebhookReceiver: @unchecked Sendable {
  /// How the next requests are answered.
  public enum Behavior: Sendable, Equatable {
    /// Answer with this status and an empty body.
    case status(Int)
    /// Answer with this status and this body (`application/json`).
    case body(Int, String)
    /// Read the request, then say nothing until the client gives up (at most 30 s).
    case hang
    /// Read the request, then close without answering.
    case closeEarly
    /// Write these bytes as soon as the connection is accepted, read nothing, close (a TLS client
    /// gets a handshake failure; an HTTP client whatever the bytes are). No request is recorded.
    case rawAtOnce(String)
  }

  /// One request read.
  public struct Request: Sendable {
    public var method: String
    public var path: String
    /// By lower-cased name.
    public var headers: [String: String]
    public var body: Data
    /// When it was read (wall clock).
    public var receivedAt: ContinuousClock.Instant
    public var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// The port bound.
  public let port: UInt16
  /// `http://127.0.0.1:PORT/hook`.
  public var url: String { "http://127.0.0.1:\(port)/hook" }

  private let listener: Int32
  private let state = Guarded(
    (behavior: Behavior.status(200), requests: [Request](), stopped: false, beforeAnswer: (@Sendable (Int) -> Void)?.none))
  private let arrived = NSCondition()
  private let finished = DispatchSemaphore(value: 0)

  public init(behavior: Behavior = .status(200)) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw RawHTTPConnection.Failure(description: "socket: \(errno)") }
    var reuse: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    _ = inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(listener, 64) == 0 else {
      close(listener)
      throw RawHTTPConnection.Failure(description: "bind/listen: \(errno)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    self.listener = listener
    state.withLock { $0.behavior = behavior }
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  deinit { stop() }

  /// Changes how requests from now on are answered.
  public func setBehavior(_ behavior: Behavior) { state.withLock { $0.behavior = behavior } }

  /// Called with each request's index (from 0), after it is recorded and before it is answered, on the
  /// receiver's thread: a test's hook into "the request was sent, its answer not yet received". A
  /// behavior it sets answers this request.
  public func setBeforeAnswer(_ hook: (@Sendable (Int) -> Void)?) { state.withLock { $0.beforeAnswer = hook } }

  /// Every request read so far, in order.
  public var requests: [Request] { state.withLock { $0.requests } }

  /// Waits until at least `count` requests were read, at most `timeout`; whether they were.
  @discardableResult
  public func waitForRequests(_ count: Int, timeout: Duration = .seconds(20)) -> Bool {
    let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
    arrived.lock()
    defer { arrived.unlock() }
    while requests.count < count {
      guard arrived.wait(until: deadline) else { return requests.count >= count }
    }
    return true
  }

  /// Stops accepting; safe to call twice.
  public func stop() {
    let first = state.withLock { state in
      defer { state.stopped = true }
      return !state.stopped
    }
    guard first else { return }
    finished.wait()
    close(listener)
  }

  private var isStopped: Bool { state.withLock { $0.stopped } }

  private func acceptLoop() {
    defer { finished.signal() }
    while !isStopped {
      var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 50) > 0 else { continue }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      serve(connection)
      close(connection)
    }
  }

  private func serve(_ connection: Int32) {
    if case .rawAtOnce(let bytes) = state.withLock({ $0.behavior }) {
      _ = bytes.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
      return
    }
    guard let request = read(from: connection) else { return }
    let (index, hook) = state.withLock { state in
      state.requests.append(request)
      return (state.requests.count - 1, state.beforeAnswer)
    }
    hook?(index)
    // Read after the hook, so a test backend can decide this request's answer from its body.
    let behavior = state.withLock { $0.behavior }
    arrived.lock()
    arrived.broadcast()
    arrived.unlock()
    switch behavior {
    case .status(let status):
      let head = "HTTP/1.1 \(status) \(status < 300 ? "OK" : "Failed")\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
      _ = head.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    case .body(let status, let text):
      let head =
        "HTTP/1.1 \(status) \(status < 300 ? "OK" : "Failed")\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)"
      _ = head.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    case .hang:
      // Until the client closes (its time-out) or 30 s pass.
      var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      var buffer = [UInt8](repeating: 0, count: 256)
      for _ in 0..<300 where !isStopped {
        if poll(&poller, 1, 100) > 0, recv(connection, &buffer, buffer.count, 0) <= 0 { break }
      }
    case .closeEarly, .rawAtOnce:
      break
    }
  }

  /// One request: headers, then a `Content-Length` body; nil when cut short or slower than 5 s.
  private func read(from connection: Int32) -> Request? {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var headerEnd: Range<Data.Index>?
    var expected: Int?
    for _ in 0..<500 {
      if let end = headerEnd, let expected, data.count - end.upperBound >= expected { break }
      var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 10_000) > 0 else { return nil }
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0 else { return nil }
      data.append(contentsOf: buffer[0..<count])
      if headerEnd == nil, let end = data.range(of: Data("\r\n\r\n".utf8)) {
        headerEnd = end
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        expected = Self.headers(of: head)["content-length"].flatMap { Int($0) } ?? 0
      }
    }
    guard let end = headerEnd else { return nil }
    let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
    let requestLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
    let parts = requestLine.split(separator: " ")
    return Request(
      method: parts.first.map(String.init) ?? "", path: parts.count > 1 ? String(parts[1]) : "", headers: Self.headers(of: head),
      body: Data(data[end.upperBound...]), receivedAt: .now)
  }

  private static func headers(of head: String) -> [String: String] {
    var headers: [String: String] = [:]
    for line in head.split(separator: "\r\n").dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return headers
  }
}
