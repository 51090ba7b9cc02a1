import Foundation

/// How a serving process delivers its environment's notifications.
public struct DeliveryConfiguration: Sendable, Equatable {
  /// `Sandbox` or `Production`: only this environment's notifications go out, to its URL.
  public var environment: String
  public var bundleID: String
  /// `appAppleId`, sent in Production payloads.
  public var appAppleID: Int64
  /// Use the Production retry schedule in Sandbox too (Apple's Sandbox tries once).
  public var retriesInSandbox: Bool
  public var client: WebhookClient.Configuration
  /// The longest wait between looks at the outbox when no commit wakes the deliverer.
  public var fallbackPoll: Duration

  /// The default `appAppleId`: any number works for a backend configured with the same.
  public static let defaultAppAppleID: Int64 = 1_234_567_890

  public init(
    environment: String, bundleID: String, appAppleID: Int64 = defaultAppAppleID, retriesInSandbox: Bool = false,
    client: WebhookClient.Configuration = WebhookClient.Configuration(), fallbackPoll: Duration = .seconds(1)
  ) {
    self.environment = environment
    self.bundleID = bundleID
    self.appAppleID = appAppleID
    self.retriesInSandbox = retriesInSandbox
    self.client = client
    self.fallbackPoll = fallbackPoll
  }

  /// Production's schedule in Production (and in Sandbox when asked), else one attempt.
  public var schedule: RetrySchedule {
    environment == "Production" || retriesInSandbox ? .production : .once
  }
}
