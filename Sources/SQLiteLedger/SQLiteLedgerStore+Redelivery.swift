import Foundation
import StoreEngine

extension SQLiteLedgerStore: NotificationOutbox {
  /// Makes entry `sequence` pending again, due at `date`: its attempts, UUID and signed payload stay,
  /// so the redelivery is the same notification (Apple's retries keep the `notificationUUID`).
  public func redeliver(_ sequence: Int64, at date: Date) throws(LedgerError) {
    guard !options.readOnly else { throw .readOnly(path: path) }
    do {
      let update = try connection.prepare("UPDATE outbox_delivery SET state = 0, next_attempt = ?2 WHERE seq = ?1")
      try update.bind(sequence, at: 1)
      try update.bind(date.timeIntervalSince1970, at: 2)
      try update.run()
    } catch {
      throw LedgerError(error, path: path, while: .writing)
    }
  }
}
