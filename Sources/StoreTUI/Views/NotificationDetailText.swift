import Foundation
import StoreEngine

/// A notification as its sheet reads: what it is about, each delivery attempt, then the signed payload
/// and the transaction and renewal info it carries, decoded (never verified: this is a reader).
enum NotificationDetailText {
  /// `#3 DID_RENEW BILLING_RECOVERY · delivered`.
  static func title(_ entry: OutboxEntry) -> String {
    "#\(entry.sequence) \(kind(entry.notification)) · \(state(entry))"
  }

  static func kind(_ notification: ServerNotification) -> String {
    [notification.notificationType.rawValue, notification.subtype?.rawValue].compactMap { $0 }.joined(separator: " ")
  }

  static func state(_ entry: OutboxEntry) -> String {
    switch entry.state {
    case .pending: entry.attempts.isEmpty ? "queued" : "retrying"
    case .delivered: "delivered"
    case .failed: "failed"
    }
  }

  /// `SUCCESS 200` or `TIMED_OUT`.
  static func result(_ attempt: DeliveryAttempt) -> String {
    attempt.result.rawValue + (attempt.httpStatus.map { " \($0)" } ?? "")
  }

  static func lines(_ entry: OutboxEntry) -> [String] {
    let notification = entry.notification
    var lines = ["Notification #\(entry.sequence): \(kind(notification))"]
    lines.append("  dated \(DateText.full(notification.date)) (virtual time)")
    lines.append("  \(state(entry))" + (entry.nextAttempt.map { ", next attempt \(DateText.full($0))" } ?? ""))
    let facts: [(String, String?)] = [
      ("account", notification.account), ("transaction", notification.transactionID?.description),
      ("original transaction", notification.originalTransactionID?.description), ("status", notification.status.map(String.init)),
      ("consumption request reason", notification.consumptionRequestReason),
      ("test notification token", notification.testNotificationToken), ("notificationUUID", entry.notificationUUID),
    ]
    for (name, value) in facts {
      if let value { lines.append("  \(name): \(value)") }
    }
    lines.append("")
    lines.append(entry.attempts.isEmpty ? "Attempts: none yet" : "Attempts")
    for (index, attempt) in entry.attempts.enumerated() {
      let took = attempt.milliseconds.map { " in \($0) ms" } ?? ""
      lines.append("  \(index + 1). \(DateText.full(attempt.date))  \(result(attempt))\(took)")
    }
    lines.append("")
    if let payload = entry.signedPayload {
      lines += decoded("signedPayload (as first sent)", payload)
    } else {
      lines.append("signedPayload: not signed yet (the serving process signs it at the first attempt)")
    }
    if let jws = notification.signedTransactionInfo { lines += [""] + decoded("signedTransactionInfo", jws) }
    if let jws = notification.signedRenewalInfo { lines += [""] + decoded("signedRenewalInfo", jws) }
    return lines
  }

  private static func decoded(_ name: String, _ jws: String) -> [String] {
    guard let parsed = try? CompactJWS(jws) else { return ["\(name): not a compact JWS"] }
    return ["\(name), decoded:"] + parsed.prettyPayloadJSON.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
  }
}
