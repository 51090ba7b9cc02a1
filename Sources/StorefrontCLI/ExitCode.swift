/// A process exit code, from BSD `sysexits.h` as Docs/Commands.md lists them; ``CLIFailure`` carries one, and
/// `storefront --help` lists them (``HelpText``).
public struct ExitCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
  public var rawValue: Int32

  public init(rawValue: Int32) { self.rawValue = rawValue }
  public init(integerLiteral value: Int32) { rawValue = value }

  public var description: String { String(rawValue) }

  public static let success: ExitCode = 0
  /// A failed check (`verify` uses it for an invalid signature, `run` for a failed `expect`).
  public static let failure: ExitCode = 1
  /// EX_USAGE: bad command line.
  public static let usage: ExitCode = 64
  /// EX_DATAERR: the input was read but is wrong (an invalid catalog or scenario, a damaged ledger).
  public static let dataError: ExitCode = 65
  /// EX_NOINPUT: an input file is missing or unreadable.
  public static let noInput: ExitCode = 66
  /// EX_UNAVAILABLE: something needed is not there (no terminal, the port is taken, the shared
  /// ledger cannot be reached).
  public static let unavailable: ExitCode = 69
  /// EX_SOFTWARE: an internal error.
  public static let software: ExitCode = 70
  /// EX_CANTCREAT: the data directory or a file in it cannot be created or written.
  public static let cannotCreate: ExitCode = 73
  /// EX_IOERR: writing output or data failed.
  public static let ioError: ExitCode = 74
  /// EX_TEMPFAIL: try again later (the ledger is locked by another process).
  public static let temporaryFailure: ExitCode = 75
  /// EX_CONFIG: the configuration is wrong (no or a wrong key-encryption key for the shared ledger,
  /// a bad `$STOREFRONT_CLOCK_START`).
  public static let configuration: ExitCode = 78
  /// 128 + SIGABRT, what a shell reports for a process killed by an uncaught exception: a scenario
  /// did what crashes a real app (finishing a purchasing transaction).
  public static let appCrashed: ExitCode = 134

  /// Every code a command returns, with what it means, for `storefront --help`.
  static let documented: [(code: ExitCode, meaning: String)] = [
    (.success, "success"),
    (.failure, "a check failed (an expect line of run, a signature verify rejected)"),
    (.usage, "usage error (also --clock-start on a ledger that already has a clock)"),
    (.dataError, "invalid data: a catalog, a scenario, a damaged or newer ledger"),
    (.noInput, "missing or unreadable input file"),
    (.unavailable, "unavailable: no terminal, the port is taken, the shared ledger cannot be reached"),
    (.software, "internal error"),
    (.cannotCreate, "the data directory or a file in it cannot be created or written"),
    (.ioError, "writing the ledger or output failed"),
    (.temporaryFailure, "the ledger is locked by another process, or a purchase was taken over; try again"),
    (.configuration, "configuration error: no or a wrong key-encryption key for the shared ledger, a bad $STOREFRONT_CLOCK_START"),
    (.appCrashed, "a run line did what crashes a real app (finishing a purchasing transaction)"),
  ]
}
