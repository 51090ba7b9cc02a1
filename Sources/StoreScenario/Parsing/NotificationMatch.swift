import StoreEngine

/// Which server notifications an `expect notification` or `expect delivered` line means: a type (or
/// any), and a subtype, none, or any.
public struct NotificationMatch: Sendable, Equatable {
  public enum Subtype: Sendable, Equatable {
    case any
    /// `none`: the notification has no subtype.
    case none
    case exactly(NotificationSubtype)
  }

  /// nil: every type.
  public var type: NotificationType?
  public var subtype: Subtype

  public init(type: NotificationType? = nil, subtype: Subtype = .any) {
    self.type = type
    self.subtype = subtype
  }

  public func matches(_ notification: ServerNotification) -> Bool {
    if let type, notification.notificationType != type { return false }
    switch subtype {
    case .any: return true
    case .none: return notification.subtype == nil
    case .exactly(let wanted): return notification.subtype == wanted
    }
  }

  /// `DID_RENEW BILLING_RECOVERY`, `EXPIRED none`, or `notifications` for every type.
  public var text: String {
    let type = type?.rawValue ?? "notifications"
    switch subtype {
    case .any: return type
    case .none: return "\(type) none"
    case .exactly(let subtype): return "\(type) \(subtype.rawValue)"
    }
  }
}
