/// Process exit codes, from BSD `sysexits.h` as DESIGN.md asks.
public enum ExitCode {
  public static let success: Int32 = 0
  /// A failed check (`verify` uses it for an invalid signature).
  public static let failure: Int32 = 1
  /// EX_USAGE: bad command line.
  public static let usage: Int32 = 64
  /// EX_DATAERR: the input was read but is wrong (an invalid catalog).
  public static let dataError: Int32 = 65
  /// EX_NOINPUT: an input file is missing or unreadable.
  public static let noInput: Int32 = 66
  /// EX_UNAVAILABLE: the feature is not available (no terminal, not built yet).
  public static let unavailable: Int32 = 69
  /// EX_SOFTWARE: an internal error.
  public static let software: Int32 = 70
  /// EX_CANTCREAT: the data directory or a file in it cannot be created or written.
  public static let cannotCreate: Int32 = 73
  /// EX_IOERR: writing output or data failed.
  public static let ioError: Int32 = 74
  /// EX_TEMPFAIL: try again later (the ledger is locked by another process).
  public static let temporaryFailure: Int32 = 75
  /// 128 + SIGABRT, what a shell reports for a process killed by an uncaught exception: a scenario
  /// did what crashes a real app (finishing a purchasing transaction).
  public static let appCrashed: Int32 = 134
}
