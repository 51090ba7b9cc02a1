/// The app a scenario runs as, for what `AppTransaction.shared` reports (`app-transaction`).
public struct AppIdentity: Sendable, Equatable {
  /// The bundle id the store signs with.
  public var bundleID: String
  /// `Sandbox` or `Xcode`, as the signed payloads say.
  public var environment: String

  public init(bundleID: String = "com.example.storefront", environment: String = "Sandbox") {
    self.bundleID = bundleID
    self.environment = environment
  }
}
