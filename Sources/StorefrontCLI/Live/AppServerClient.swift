import Foundation
import ServerNotifications
import SimulatedApp

/// The simulated app's HTTP client for its own server: the notifier's libcurl client with the app's
/// user agent and time-outs. Use it from one thread at a time (the TUI gives it a worker).
final class AppServerClient {
  /// 2 s to connect, 10 s in all: an app waits longer for its server than the App Store does.
  static let configuration = WebhookClient.Configuration(
    connectTimeout: .seconds(2), totalTimeout: .seconds(10), userAgent: "Storefront-Simulated-App/1.0")

  private let client: WebhookClient

  init(configuration: WebhookClient.Configuration = AppServerClient.configuration) {
    client = WebhookClient(configuration: configuration)
  }

  /// POSTs the request's JSON body and says how the server answered; never throws.
  func call(_ request: AppServerRequest) -> AppServerAnswer {
    let outcome = client.post(request.body, to: request.url)
    return AppServerAnswer(request: request, status: outcome.httpStatus, milliseconds: outcome.milliseconds, error: outcome.detail)
  }
}
