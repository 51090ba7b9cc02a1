/// Why the interactive terminal could not start. The descriptions are meant for the user.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
  /// Standard input or output is not a terminal (piped, redirected, or no tty at all).
  case notATerminal(stream: Stream)
  /// `TERM` is unset or empty.
  case terminalTypeNotSet
  /// curses could not set up the terminal type named by `TERM`.
  case unusableTerminalType(String)

  /// A standard stream.
  public enum Stream: String, Sendable {
    case standardInput = "standard input"
    case standardOutput = "standard output"
  }

  public var description: String {
    let headless = "For headless use, run a scenario with `storefront run SCRIPT`."
    switch self {
    case .notATerminal(let stream):
      return "storefront needs a terminal, but \(stream.rawValue) is not one. \(headless)"
    case .terminalTypeNotSet:
      return "storefront needs a terminal type, but TERM is not set. "
        + "Set TERM (for example TERM=xterm-256color). \(headless)"
    case .unusableTerminalType(let type):
      return "storefront cannot use the terminal type '\(type)' (from TERM). "
        + "Set TERM to a type your terminfo database knows, such as xterm-256color. \(headless)"
    }
  }
}
