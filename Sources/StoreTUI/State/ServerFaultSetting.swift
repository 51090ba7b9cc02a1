/// The fault every endpoint of the App Store Server API answers with, as the Settings pane cycles
/// it: the data directory's fault plan for "all endpoints", which a serving process reads.
public struct ServerFaultSetting: Equatable, Sendable {
  public enum Answer: String, Equatable, Sendable, CaseIterable {
    case off
    case rateLimit = "429"
    case internalError = "500"
    case retryable
  }

  /// Delays the pane cycles through, in milliseconds.
  public static let delays = [0, 250, 1_000, 5_000]

  public var answer: Answer
  /// Real-time delay before each answer.
  public var delayMilliseconds: Int

  public init(answer: Answer = .off, delayMilliseconds: Int = 0) {
    self.answer = answer
    self.delayMilliseconds = delayMilliseconds
  }
}

/// Reads and writes the server fault of the data directory: given by the app's owner, since StoreTUI
/// does not depend on the App Store Server API.
public struct ServerFaultAccess: Sendable {
  public var read: @Sendable () -> ServerFaultSetting
  /// Writes the setting; returns what went wrong, or nil.
  public var write: @Sendable (ServerFaultSetting) -> String?

  public init(read: @escaping @Sendable () -> ServerFaultSetting, write: @escaping @Sendable (ServerFaultSetting) -> String?) {
    self.read = read
    self.write = write
  }
}
