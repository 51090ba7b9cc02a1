import Foundation

extension InMemoryLedgerStore: NotificationOutbox {
  public func outbox(after sequence: Int64, limit: Int) throws(LedgerError) -> [OutboxEntry] {
    let start = Int(max(0, min(sequence, Int64(outbox.count))))
    return outbox[start...].prefix(max(0, limit)).enumerated().map { offset, notification in
      let number = Int64(start + offset + 1)
      return deliveries[number] ?? OutboxEntry(sequence: number, notification: notification, nextAttempt: notification.date)
    }
  }

  public func recordDelivery(of entry: OutboxEntry) throws(LedgerError) {
    guard entry.sequence >= 1, entry.sequence <= Int64(outbox.count) else { return }
    var stored = entry
    stored.notification = outbox[Int(entry.sequence) - 1]
    if let earlier = deliveries[entry.sequence] {
      stored.notificationUUID = earlier.notificationUUID ?? entry.notificationUUID
      stored.signedPayload = earlier.signedPayload ?? entry.signedPayload
    }
    deliveries[entry.sequence] = stored
  }

  public func redeliver(_ sequence: Int64, at date: Date) throws(LedgerError) {
    guard var entry = try outbox(after: sequence - 1, limit: 1).first, entry.sequence == sequence else { return }
    entry.state = .pending
    entry.nextAttempt = date
    deliveries[sequence] = entry
  }
}
