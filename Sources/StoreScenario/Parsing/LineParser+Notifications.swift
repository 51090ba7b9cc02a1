import Foundation
import StoreEngine

extension LineParser {
  /// `notifications url URL|off [environment=Sandbox|Production]`.
  mutating func notifications() throws(ScenarioIssue) -> ScenarioStep.Action {
    let what = try next("url")
    guard what.text == "url" else {
      throw issue(what.column, "Unknown notifications setting '\(what.text)'; use `notifications url URL|off`.")
    }
    let target = try next("a URL such as http://127.0.0.1:8080/notifications, or off")
    var url: String?
    if target.text != "off" {
      guard let parsed = URL(string: target.text), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
        throw issue(target.column, "Invalid notification URL '\(target.text)'; use an http or https URL such as http://127.0.0.1:8080/notifications, or off.")
      }
      url = target.text
    }
    var environment: String?
    if let option = option("environment") {
      guard ["Sandbox", "Production"].contains(option.value) else {
        throw issue(option.column, "Invalid environment '\(option.value)'; use Sandbox or Production.")
      }
      environment = option.value
    }
    return .notificationURL(url, environment: environment)
  }

  /// `TYPE [SUBTYPE|none]` after `expect notification`; `any` is every type (for `expect delivered`).
  mutating func notificationMatch(optional: Bool) throws(ScenarioIssue) -> NotificationMatch {
    guard !optional || !positionals.isEmpty else { return NotificationMatch() }
    let typeToken = try next("a notification type such as SUBSCRIBED or DID_RENEW")
    guard let type = NotificationType(rawValue: typeToken.text) else {
      let names = NotificationType.allCases.map(\.rawValue)
      let hint = suggestion(for: typeToken.text, in: names).map { " Did you mean '\($0)'?" } ?? ""
      throw issue(typeToken.column, "Unknown notification type '\(typeToken.text)'.\(hint)")
    }
    guard let subtypeToken = positionals.first else { return NotificationMatch(type: type) }
    positionals.removeFirst()
    if subtypeToken.text == "none" { return NotificationMatch(type: type, subtype: .none) }
    guard let subtype = NotificationSubtype(rawValue: subtypeToken.text) else {
      let names = NotificationSubtype.allCases.map(\.rawValue)
      let hint = suggestion(for: subtypeToken.text, in: names).map { " Did you mean '\($0)'?" } ?? ""
      throw issue(subtypeToken.column, "Unknown notification subtype '\(subtypeToken.text)'; use a subtype such as INITIAL_BUY, or none.\(hint)")
    }
    return NotificationMatch(type: type, subtype: .exactly(subtype))
  }

  /// `expect delivered [TYPE [SUBTYPE]] [within=5s]`.
  mutating func deliveredExpectation() throws(ScenarioIssue) -> ScenarioStep.Expectation {
    let match = try notificationMatch(optional: true)
    var within = Duration.seconds(5)
    if let option = option("within") {
      guard let value = Self.wallClockDuration(option.value), value > .zero else {
        throw issue(option.column, "Invalid wait '\(option.value)'; write milliseconds or seconds of real time, such as 500ms or 5s (at most 60s).")
      }
      within = value
    }
    return .delivered(match, within: within)
  }
}
