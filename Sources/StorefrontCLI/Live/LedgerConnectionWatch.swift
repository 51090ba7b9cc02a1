import PostgreSQLLedger
import StoreEngine

/// Who hears about a shared ledger's connection, and how long a step waits for it: what a command
/// asks ``LiveStore/open(catalog:global:environment:start:signingEnvironment:regenerateCA:ledgerConnection:)`` for.
enum LedgerConnectionWatch {
  /// No lines; a step waits up to the command-line patience.
  case quiet
  /// Lines on `io`'s standard error (``LedgerConnectionLog``); a step, and opening, waits up to the
  /// command-line patience (`storefront run` started while the database restarts waits for it).
  case log(any ConsoleIO)
  /// The TUI: a step never waits (its tick tries again), and each change goes to `onChange`.
  case interactive(onChange: @Sendable (LedgerConnectionState) -> Void)

  struct Resolved {
    var policy: PostgreSQLReconnectPolicy
    var onChange: (@Sendable (LedgerConnectionState) -> Void)?
    var onProblem: @Sendable (String) -> Void
    var waitsAtOpen = false
  }

  func resolved(name: String) -> Resolved {
    switch self {
    case .quiet:
      return Resolved(policy: .commandLine, onChange: nil, onProblem: { _ in })
    case .log(let io):
      let log = LedgerConnectionLog(io: io, name: name)
      return Resolved(policy: .commandLine, onChange: { log.report($0) }, onProblem: { log.problem($0) }, waitsAtOpen: true)
    case .interactive(let onChange):
      return Resolved(policy: .interactive, onChange: onChange, onProblem: { _ in })
    }
  }
}
