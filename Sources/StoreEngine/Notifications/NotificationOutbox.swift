import Foundation

/// A ledger's outbox of server notifications as its readers see it: the App Store Server API (history,
/// test notification status), the Server pane and `expect delivered`. The process that serves
/// delivers from it and records each attempt (``recordDelivery(of:)``).
public protocol NotificationOutbox: AnyObject {
  /// Entries after `sequence`, in commit order (at most `limit`).
  func outbox(after sequence: Int64, limit: Int) throws(LedgerError) -> [OutboxEntry]
  /// Records what delivering ``OutboxEntry/sequence`` did; the UUID and signed payload of the first
  /// attempt are kept for good.
  func recordDelivery(of entry: OutboxEntry) throws(LedgerError)
  /// Makes entry `sequence` pending again, due at `date` (virtual time), keeping its attempts, UUID
  /// and payload: a redelivery by hand, which the deliverer picks up as any due entry.
  func redeliver(_ sequence: Int64, at date: Date) throws(LedgerError)
}

extension NotificationOutbox {
  /// Every entry, in commit order, read in batches.
  public func allNotifications() throws(LedgerError) -> [OutboxEntry] {
    var entries: [OutboxEntry] = []
    while true {
      let batch = try outbox(after: entries.last?.sequence ?? 0, limit: 1_000)
      entries += batch
      if batch.count < 1_000 { return entries }
    }
  }
}
