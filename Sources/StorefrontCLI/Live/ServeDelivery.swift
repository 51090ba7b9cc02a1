import Foundation
import ServerNotifications

/// How a serving process delivers notifications: `serve`'s `--notify`, `--app-apple-id`,
/// `--retry-in-sandbox` and time-out options; the TUI's `--serve` takes the defaults.
struct ServeDelivery: Sendable {
  /// Set as the serving environment's notification URL (an engine command, so it is in the ledger).
  var notifyURL: NotificationURL?
  var appAppleID: Int64 = DeliveryConfiguration.defaultAppAppleID
  var retriesInSandbox = false
  var client = WebhookClient.Configuration()
  /// Called after each attempt, on the deliverer's thread.
  var log: @Sendable (NotificationDeliverer.Report) -> Void = { _ in }
}
