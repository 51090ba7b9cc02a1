import StoreEngine

/// What the Server pane lists: the in-process server's address, its last requests, and the App Store
/// Server Notifications of the data directory's outbox (which the same process delivers).
public struct ServerLog: Equatable, Sendable {
  /// Requests kept; older ones are dropped (and counted).
  public static let capacity = 500

  /// `http://127.0.0.1:8808`.
  public var url: String
  /// Newest first.
  public private(set) var requests: [ServerRequest] = []
  /// Requests seen this session, dropped ones included.
  public private(set) var received = 0
  /// Notifications kept, the newest of the outbox.
  public static let notificationCapacity = 500
  /// The outbox's notifications with their delivery so far, newest first.
  public private(set) var notifications: [OutboxEntry] = []
  /// Whether the pane lists the notifications rather than the requests.
  public var showsNotifications = false

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

  /// Takes in entries read from the outbox (new ones, and known ones whose delivery moved on);
  /// returns how many were new.
  @discardableResult
  mutating func merge(_ entries: [OutboxEntry]) -> Int {
    var added = 0
    for entry in entries {
      if let index = notifications.firstIndex(where: { $0.sequence == entry.sequence }) {
        notifications[index] = entry
      } else {
        let position = notifications.firstIndex { $0.sequence < entry.sequence } ?? notifications.count
        notifications.insert(entry, at: position)
        added += 1
      }
    }
    if notifications.count > Self.notificationCapacity {
      notifications.removeLast(notifications.count - Self.notificationCapacity)
    }
    return added
  }

  /// Where the next outbox read starts: before the oldest entry still pending, or after the newest.
  public var outboxFloor: Int64 {
    let pending = notifications.filter { $0.state == .pending }.map(\.sequence).min()
    return pending.map { $0 - 1 } ?? notifications.first?.sequence ?? 0
  }
}
