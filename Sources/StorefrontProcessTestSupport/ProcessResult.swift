import Foundation

/// What a finished child process did: its exit status (or the signal that ended it) and everything
/// it wrote to standard output and standard error.
public struct ProcessResult: Sendable {
  /// The program's file name, such as `storefront` or `env`.
  public var executableName: String
  /// The arguments it was given, without the program itself.
  public var arguments: [String]
  /// The exit status, or the signal number when ``signalled`` is true.
  public var status: Int32
  /// True when a signal ended the process (``status`` is then the signal number).
  public var signalled: Bool
  /// True when the process was still running at its timeout and was killed with SIGKILL.
  public var timedOut: Bool
  /// Standard output, byte for byte.
  public var stdoutData: Data
  /// Standard error, decoded as UTF-8 (invalid bytes replaced).
  public var stderr: String

  /// Creates a result; the runners in this module make them.
  public init(
    executableName: String, arguments: [String], status: Int32, signalled: Bool = false, timedOut: Bool = false,
    stdoutData: Data, stderr: String
  ) {
    self.executableName = executableName
    self.arguments = arguments
    self.status = status
    self.signalled = signalled
    self.timedOut = timedOut
    self.stdoutData = stdoutData
    self.stderr = stderr
  }

  /// Standard output decoded as UTF-8 (invalid bytes replaced).
  public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }

  /// Standard output split at each newline, without the empty string after a final newline: empty
  /// lines in the middle are kept, and no output at all is no lines.
  public var lines: [String] {
    var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// One line for a failure message (`storefront run x exited 65`), then standard error.
  public var summary: String {
    let command = ([executableName] + arguments).joined(separator: " ")
    let ending: String
    if timedOut {
      ending = "did not exit within its timeout and was killed (signal \(status))"
    } else if signalled {
      ending = "was killed by signal \(status)"
    } else {
      ending = "exited \(status)"
    }
    return "\(command) \(ending)\nstderr:\n\(stderr)"
  }
}

/// Why a child process could not be run to the end.
public enum ProcessError: Error, CustomStringConvertible {
  /// `posix_spawn` (or a pipe for it) failed.
  case cannotStart(executable: String, reason: String)
  /// The process did not go away even after SIGKILL, or its output stayed open after it exited
  /// (a descendant still holds it).
  case didNotFinish(command: String, seconds: TimeInterval)

  /// A sentence for the test log.
  public var description: String {
    switch self {
    case .cannotStart(let executable, let reason): "cannot start \(executable): \(reason)"
    case .didNotFinish(let command, let seconds):
      "\(command) did not finish within \(seconds) s, even after SIGKILL (a descendant may hold its output open)"
    }
  }
}
