import SharedLedgerSecrets
import StoreEngine
import StoreServer

/// Why a command stopped, as swift-argument-parser's errors: the message carries no label, and
/// ``report(to:)`` — the one place — writes it as `Error: <message>` and gives the exit code.
///
/// Commands throw it; ``StorefrontCLI/main(_:environment:io:)`` reports what they throw.
public struct CLIFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong and what to do, without `Error:`; nil when the details are already written
  /// (a catalog's located problems), so only the exit code is left.
  public var message: String?
  public var exitCode: ExitCode
  /// Lines after the message, unlabelled (a usage error's `Usage:` and where to find help).
  public var notes: [String]

  public init(_ message: String, _ exitCode: ExitCode, notes: [String] = []) {
    self.message = message
    self.exitCode = exitCode
    self.notes = notes
  }

  /// A failure whose details the command already wrote: only the exit code.
  public static func reported(_ exitCode: ExitCode) -> CLIFailure {
    var failure = CLIFailure("", exitCode)
    failure.message = nil
    return failure
  }

  /// The text for standard error, as argument-parser's `MessageInfo.fullText(for:)`: the label
  /// once, then the notes; empty when already reported.
  public var fullText: String {
    guard let message else { return "" }
    return (["Error: \(message)"] + notes).map { $0 + "\n" }.joined()
  }

  public var description: String { message ?? "exit \(exitCode)" }

  /// Writes ``fullText`` to standard error and returns the exit code.
  @discardableResult
  func report(to io: any ConsoleIO) -> ExitCode {
    let text = fullText
    if !text.isEmpty { io.writeError(text) }
    return exitCode
  }
}

extension CLIFailure {
  /// A ledger's failure: its message, and the exit code for its kind.
  init(_ error: LedgerError) {
    self.init("\(error)", Self.exitCode(for: error))
  }

  /// Any error: its message, and the code ``exitCode(for:otherwise:)`` gives it.
  init(_ error: any Error, otherwise: ExitCode) {
    self.init("\(error)", Self.exitCode(for: error, otherwise: otherwise))
  }

  /// The one classification: a ledger's failure (also inside an engine error) by its kind, the
  /// shared ledger's key-encryption key EX_CONFIG (78), anything else `otherwise`.
  static func exitCode(for error: any Error, otherwise: ExitCode) -> ExitCode {
    if let ledger = error as? LedgerError { return exitCode(for: ledger) }
    if case .ledger(let ledger)? = error as? EngineError { return exitCode(for: ledger) }
    if error is SharedSecretStorage.Failure { return .configuration }
    return otherwise
  }

  /// An API key store's failure (its message ends with a full stop).
  init(keys error: APIKeyStoreError) {
    let code: ExitCode =
      switch error {
      case .unreadable, .notAP256Key: .noInput
      case .unwritable: .cannotCreate
      case .unknownKey, .duplicateKey: .dataError
      case .invalidKeyID, .invalidIssuerID: .usage
      }
    self.init("\(error.description).", code)
  }

  /// The exit code for a ledger error: damaged 65, locked or taken over 75, not openable or
  /// writable 73, a failed write 74, unreachable 69.
  static func exitCode(for error: LedgerError) -> ExitCode {
    switch error {
    case .corrupt, .newerSchema: .dataError
    case .busy, .takenOver, .deviceValueChanged: .temporaryFailure
    case .cannotOpen, .readOnly: .cannotCreate
    case .writeFailed: .ioError
    case .unreachable: .unavailable
    }
  }
}
