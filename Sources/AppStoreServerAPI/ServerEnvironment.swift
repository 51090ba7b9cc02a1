/// Which App Store the server plays: Apple keeps Sandbox and Production apart, and so does the server
/// (a transaction signed for the other environment is not found).
public enum ServerEnvironment: String, Sendable, Equatable, CaseIterable {
  case sandbox = "Sandbox"
  case production = "Production"

  /// The `environment` value of payloads and responses (`Sandbox`, `Production`).
  public var payloadName: String { rawValue }
}
