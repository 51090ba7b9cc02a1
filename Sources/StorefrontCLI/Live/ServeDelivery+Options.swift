import Foundation
import ServerNotifications
import StoreEngine

extension ServeDelivery {
  /// serve's notification options.
  static let options = [
    OptionSpec("--notify", value: "url", help: "Set the environment's notification URL (http or https) and deliver to it."),
    OptionSpec("--app-apple-id", value: "n", help: "The appAppleId of Production notifications (default \(DeliveryConfiguration.defaultAppAppleID))."),
    OptionSpec("--retry-in-sandbox", help: "Retry failed Sandbox notifications on Production's schedule (Apple's Sandbox tries once)."),
    OptionSpec("--notify-timeout", value: "duration", help: "Time-out of one delivery attempt, such as 5s (default) or 500ms."),
    OptionSpec("--notify-connect-timeout", value: "duration", help: "Time-out to connect to the receiver (default 2s)."),
  ]

  /// The options of `invocation`, or the usage error's text.
  static func parse(_ invocation: Invocation) -> Result<ServeDelivery, UsageText> {
    var delivery = ServeDelivery()
    if let text = invocation.arguments.value("--notify") {
      do throws(NotificationURL.Invalid) {
        delivery.notifyURL = try NotificationURL(validating: text)
      } catch {
        return .failure(UsageText(text: "Invalid value for '--notify <url>': \(error.reason)."))
      }
    }
    if let text = invocation.arguments.value("--app-apple-id") {
      guard let number = Int64(text), number > 0 else {
        return .failure(UsageText(text: "The value '\(text)' is invalid for '--app-apple-id <n>': use a positive number."))
      }
      delivery.appAppleID = number
    }
    delivery.retriesInSandbox = invocation.arguments.flag("--retry-in-sandbox")
    for (option, keyPath) in [("--notify-timeout", \WebhookClient.Configuration.totalTimeout), ("--notify-connect-timeout", \.connectTimeout)] {
      guard let text = invocation.arguments.value(option) else { continue }
      guard let duration = Self.duration(text) else {
        return .failure(UsageText(text: "The value '\(text)' is invalid for '\(option) <duration>': use milliseconds or seconds, such as 500ms or 5s."))
      }
      delivery.client[keyPath: keyPath] = duration
    }
    return .success(delivery)
  }

  /// `500ms`, `5s`: positive, at most an hour.
  static func duration(_ text: String) -> Duration? {
    let (digits, scale): (Substring, Int64) =
      text.hasSuffix("ms") ? (text.dropLast(2), 1) : text.hasSuffix("s") ? (text.dropLast(1), 1000) : (Substring(text), 1000)
    guard let value = Int64(digits), value > 0, value * scale <= 3_600_000 else { return nil }
    return .milliseconds(value * scale)
  }

  /// A usage error's message.
  struct UsageText: Error {
    var text: String
  }

  /// serve's line for a delivery report: text, or one JSON object.
  static func line(_ report: NotificationDeliverer.Report, json: Bool) -> String {
    switch report {
    case .ledgerFailed(let message):
      if json { return jsonLine(["event": "notificationError", "message": message]) }
      return "notification delivery paused: \(message)"
    case .attempted(let entry, let attempt, let detail):
      let state = NotificationListing.stateName(entry.state)
      if json {
        var object: [String: Any] = [
          "event": "notification", "sequence": entry.sequence, "notificationType": entry.notification.notificationType.rawValue,
          "result": attempt.result.rawValue, "state": state, "attempt": entry.attempts.count,
        ]
        object["subtype"] = entry.notification.subtype?.rawValue
        object["notificationUUID"] = entry.notificationUUID
        object["httpStatus"] = attempt.httpStatus
        object["milliseconds"] = attempt.milliseconds
        object["nextAttempt"] = entry.nextAttempt.map(NotificationListing.timestamp)
        object["detail"] = detail
        return jsonLine(object)
      }
      let kind = [entry.notification.notificationType.rawValue, entry.notification.subtype?.rawValue].compactMap { $0 }.joined(separator: " ")
      let status = attempt.httpStatus.map { " \($0)" } ?? ""
      let next = entry.nextAttempt.map { ", next attempt \(NotificationListing.timestamp($0))" } ?? ""
      return "notification \(entry.sequence) \(kind) → \(attempt.result.rawValue)\(status) (\(attempt.milliseconds ?? 0) ms, \(state)\(next))"
    }
  }

  private static func jsonLine(_ object: [String: Any]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}
