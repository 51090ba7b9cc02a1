import Foundation

/// Where commands write: standard output and standard error. Tests pass a ``CapturedConsole``.
public protocol ConsoleIO: AnyObject {
  /// Writes `text` to standard output, as is (add the newline yourself).
  func write(_ text: String)
  /// Writes `text` to standard error, as is.
  func writeError(_ text: String)
  /// Whether standard input and output are both terminals (the TUI needs them).
  var isInteractiveTerminal: Bool { get }
}

extension ConsoleIO {
  /// Writes `line` and a newline to standard output.
  func line(_ line: String = "") { write(line + "\n") }
  /// Writes `line` and a newline to standard error.
  func errorLine(_ line: String) { writeError(line + "\n") }
}

/// The process's real standard output and standard error.
public final class StandardConsole: ConsoleIO, Sendable {
  public init() {}

  public func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  public func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  public var isInteractiveTerminal: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }
}

/// Collects everything written, for tests.
public final class CapturedConsole: ConsoleIO {
  /// Everything written to standard output.
  public private(set) var output = ""
  /// Everything written to standard error.
  public private(set) var errorOutput = ""
  public var isInteractiveTerminal: Bool

  public init(isInteractiveTerminal: Bool = false) {
    self.isInteractiveTerminal = isInteractiveTerminal
  }

  public func write(_ text: String) { output += text }
  public func writeError(_ text: String) { errorOutput += text }
}
