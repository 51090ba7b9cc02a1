/// What the Server pane lists: the in-process server's address and its last requests.
///
/// Issue 14 adds the App Store Server Notifications sent from the same server; they get their own
/// list beside ``requests``.
public struct ServerLog: Equatable, Sendable {
  /// Requests kept; older ones are dropped (and counted).
  public static let capacity = 500

  /// `http://127.0.0.1:8808`.
  public var url: String
  /// Newest first.
  public private(set) var requests: [ServerRequest] = []
  /// Requests seen this session, dropped ones included.
  public private(set) var received = 0

  public init(url: String) {
    self.url = url
  }

  /// Requests dropped to stay within ``capacity``.
  public var dropped: Int { received - requests.count }

  /// Adds `request` at the top, numbered; drops the oldest beyond ``capacity``.
  mutating func record(_ request: ServerRequest) {
    received += 1
    var numbered = request
    numbered.number = received
    requests.insert(numbered, at: 0)
    if requests.count > Self.capacity { requests.removeLast(requests.count - Self.capacity) }
  }
}
