extension PaymentQueue {
  /// The app's server's notification URLs by environment, as of the last refresh.
  public var notificationURLs: [String: String] { machine.notificationURLs }

  /// The environment the store signs for (`Sandbox`, `Production`, `Xcode`), if it signs.
  public var signingEnvironment: String? { machine.environment.signer?.environment }
}
