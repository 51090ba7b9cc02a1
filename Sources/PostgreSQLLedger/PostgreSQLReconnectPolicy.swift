/// How a shared ledger reconnects after its database went away (a restart, a cut link): attempts
/// spaced by exponential back-off, `firstDelay` doubling up to `maximumDelay`, for at most
/// `patience` per call.
public struct PostgreSQLReconnectPolicy: Sendable, Equatable {
  /// The wait before the first attempt.
  public var firstDelay: Duration
  /// The longest wait between two attempts.
  public var maximumDelay: Duration
  /// How long one call waits for the database before it fails with
  /// ``StoreEngine/LedgerError/unreachable(server:reason:)``; nil: it never waits, it makes one
  /// attempt when one is due and fails at once otherwise (an interactive client, whose tick calls
  /// again, so it never gives up).
  public var patience: Duration?

  public init(firstDelay: Duration = .milliseconds(100), maximumDelay: Duration = .seconds(5), patience: Duration? = .seconds(60)) {
    self.firstDelay = firstDelay
    self.maximumDelay = maximumDelay
    self.patience = patience
  }

  /// Headless commands (`storefront run`, `serve`): a call waits up to 60 s, then fails naming the database.
  public static let commandLine = PostgreSQLReconnectPolicy()
  /// The TUI: never blocks its thread and never gives up; the header shows the attempts.
  public static let interactive = PostgreSQLReconnectPolicy(patience: nil)

  /// The wait before attempt `attempt` (1, 2, …): `firstDelay × 2^(attempt-1)`, at most `maximumDelay`.
  public func delay(before attempt: Int) -> Duration {
    var delay = firstDelay
    for _ in 1..<max(1, attempt) {
      delay *= 2
      if delay >= maximumDelay { return maximumDelay }
    }
    return min(delay, maximumDelay)
  }
}
