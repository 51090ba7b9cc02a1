import Foundation
import StoreEngine

extension ScenarioRunner {
  /// How often `expect delivered` reads the outbox while it waits.
  static let deliveryPoll = Duration.milliseconds(20)

  /// `expect notification`, `expect notifications`, `expect delivered`.
  func checkNotifications(_ expectation: ScenarioStep.Expectation) throws(StepError) -> String? {
    switch expectation {
    case .notification(let match):
      let rest = queuedNotifications.indices.filter { $0 >= notificationCursor }
      guard let found = rest.first(where: { match.matches(queuedNotifications[$0]) }) else {
        let seen = rest.map { Self.describe(queuedNotifications[$0]) }
        let since = notificationCursor == 0 ? "in the run" : "since the previous `expect notification`"
        return "expected a \(match.text) notification queued \(since), but \(seen.isEmpty ? "none was queued" : "the queued ones are \(seen.joined(separator: ", "))")"
      }
      notificationCursor = found + 1
      return nil
    case .notifications(let count):
      return queuedNotifications.count == count ? nil
        : "expected \(count) notifications queued in the run, but \(queuedNotifications.count) were\(queuedNotifications.isEmpty ? "" : ": " + queuedNotifications.map(Self.describe).joined(separator: ", "))"
    case .delivered(let match, let within):
      return try waitForDelivery(of: match, within: within)
    default:
      return nil
    }
  }

  /// Reads the outbox until every entry like `match` after the run's start is delivered; fails at
  /// once on one that failed for good, and with what is still pending when the wait is over.
  private func waitForDelivery(of match: NotificationMatch, within: Duration) throws(StepError) -> String? {
    guard let notificationOutbox else {
      throw .other("expect delivered needs the data directory's outbox; run it with `storefront run` next to `storefront serve`.")
    }
    let expected = queuedNotifications.filter(match.matches).count
    guard expected > 0 else { return "expected \(match.text) to be delivered, but the run queued none (is a notification URL set?)" }
    let polls = max(1, Int((within / Self.deliveryPoll).rounded(.up)))
    var entries: [OutboxEntry] = []
    for poll in 0...polls {
      do {
        entries = try notificationOutbox.outbox(after: outboxStart, limit: 100_000).filter { match.matches($0.notification) }
      } catch {
        throw .engine(.ledger(error))
      }
      let failed = entries.filter { $0.state == .failed }
      if !failed.isEmpty {
        return "expected \(match.text) to be delivered, but \(failed.map(Self.describe).joined(separator: ", ")) failed for good"
      }
      if entries.count >= expected, entries.allSatisfy({ $0.state == .delivered }) { return nil }
      if poll < polls { pause(Self.deliveryPoll) }
    }
    let pending = entries.filter { $0.state != .delivered }
    return "expected \(match.text) to be delivered within \(within), but \(pending.map(Self.describe).joined(separator: ", ")) \(pending.count == 1 ? "is" : "are") still pending"
  }

  static func describe(_ notification: ServerNotification) -> String {
    [notification.notificationType.rawValue, notification.subtype?.rawValue].compactMap { $0 }.joined(separator: " ")
  }

  /// `#3 DID_RENEW (2 attempts, last UNSUCCESSFUL_HTTP_RESPONSE_CODE 500)`.
  static func describe(_ entry: OutboxEntry) -> String {
    let attempts: String
    if let last = entry.attempts.last {
      let status = last.httpStatus.map { " \($0)" } ?? ""
      attempts = "\(entry.attempts.count) attempt\(entry.attempts.count == 1 ? "" : "s"), last \(last.result.rawValue)\(status)"
    } else {
      attempts = "not attempted"
    }
    return "#\(entry.sequence) \(describe(entry.notification)) (\(attempts))"
  }
}
