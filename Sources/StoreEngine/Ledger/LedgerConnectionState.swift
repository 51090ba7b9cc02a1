/// How a ledger's connection to its database stands, for the TUI header and the command line: a
/// shared ledger reconnects by itself after its database went away (DECISIONS §27).
public enum LedgerConnectionState: Sendable, Equatable {
  /// Connected (again): steps commit as usual.
  case connected
  /// The connection is gone; attempt `attempt` to reconnect is due in `nextIn`. Steps fail meanwhile,
  /// and a step that failed was not committed (or was found committed after the reconnect).
  case reconnecting(attempt: Int, nextIn: Duration, lastError: String)
  /// A step waited as long as it may and failed after `attempts` attempts; the next step tries again.
  case gaveUp(attempts: Int, lastError: String)
}
