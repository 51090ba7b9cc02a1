import StoreEngine

extension AppRuntime {
  /// The environment the Settings pane's notification URL is for: the one the store signs for.
  var notificationEnvironment: String { queue.signingEnvironment ?? "Sandbox" }

  /// Reads what changed in the ledger's outbox since the last read (new notifications, and the
  /// delivery of those still pending, which the serving process records) into the Server pane.
  /// Only when the pane exists; a failed read is tried again at the next tick. `changed` is an
  /// entry known to have changed (a redelivery), read even when it was settled.
  public func readNotifications(including changed: Int64? = nil) {
    guard let server = state.server, let outbox = queue.ledger as? any NotificationOutbox else { return }
    let floor = min(server.outboxFloor, changed.map { $0 - 1 } ?? .max)
    guard let entries = try? outbox.outbox(after: floor, limit: ServerLog.notificationCapacity) else { return }
    let known = Dictionary(server.notifications.map { ($0.sequence, $0) }) { first, _ in first }
    let different = entries.filter { known[$0.sequence] != $0 }
    if !different.isEmpty { send(.notificationsRead(different)) }
  }
}
