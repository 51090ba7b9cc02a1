import Foundation
import StoreEngine
import StoreScenario

/// How `storefront notifications` and serve's log show an outbox entry.
enum NotificationListing {
  /// `pending`, `delivered`, `failed`.
  static func stateName(_ state: OutboxEntry.State) -> String {
    switch state {
    case .pending: "pending"
    case .delivered: "delivered"
    case .failed: "failed"
    }
  }

  /// Virtual time as the event lines write it.
  static func timestamp(_ date: Date) -> String { EventFormatter.timestamp(date) }

  /// One JSON object (keys sorted) for `notifications --json`.
  static func jsonLine(_ entry: OutboxEntry) -> String {
    let notification = entry.notification
    var object: [String: Any] = [
      "sequence": entry.sequence, "notificationType": notification.notificationType.rawValue, "state": stateName(entry.state),
      "date": timestamp(notification.date),
      "attempts": entry.attempts.map { attempt -> [String: Any] in
        var fields: [String: Any] = ["date": timestamp(attempt.date), "result": attempt.result.rawValue]
        fields["httpStatus"] = attempt.httpStatus
        fields["milliseconds"] = attempt.milliseconds
        return fields
      },
    ]
    object["subtype"] = notification.subtype?.rawValue
    object["environment"] = notification.environment
    object["transactionId"] = notification.transactionID.map { String($0.rawValue) }
    object["originalTransactionId"] = notification.originalTransactionID.map { String($0.rawValue) }
    object["notificationUUID"] = entry.notificationUUID
    object["nextAttempt"] = entry.nextAttempt.map(timestamp)
    object["testNotificationToken"] = notification.testNotificationToken
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// The text table's cells for one entry.
  static func row(_ entry: OutboxEntry) -> [String] {
    let notification = entry.notification
    let attempts = entry.attempts.map { attempt in
      attempt.result.rawValue + (attempt.httpStatus.map { " \($0)" } ?? "")
    }
    return [
      String(entry.sequence), notification.environment ?? "-", notification.notificationType.rawValue,
      notification.subtype?.rawValue ?? "-", notification.transactionID.map { String($0.rawValue) } ?? "-", stateName(entry.state),
      attempts.isEmpty ? "-" : "\(attempts.count): " + attempts.joined(separator: ", "),
    ]
  }

  static let header = ["SEQ", "ENV", "TYPE", "SUBTYPE", "TRANSACTION", "STATE", "ATTEMPTS"]
}
