import StoreEngine

extension AppRuntime {
  /// Reads what changed in the ledger's outbox since the last read (new notifications, and the
  /// delivery of those still pending, which the serving process records) into the Server pane.
  /// Only when the pane exists; a failed read is tried again at the next tick.
  public func readNotifications() {
    guard let server = state.server, let outbox = queue.ledger as? any NotificationOutbox else { return }
    guard let entries = try? outbox.outbox(after: server.outboxFloor, limit: ServerLog.notificationCapacity) else { return }
    let known = Dictionary(server.notifications.map { ($0.sequence, $0) }) { first, _ in first }
    let changed = entries.filter { known[$0.sequence] != $0 }
    if !changed.isEmpty { send(.notificationsRead(changed)) }
  }
}
