/// One `--option` a command accepts: a flag, or an option with a value.
struct OptionSpec: Sendable, Equatable {
  /// `--json`, `--root`.
  var name: String
  /// The value's placeholder (`path`), or nil for a flag.
  var valueName: String?
  var help: String

  init(_ name: String, value: String? = nil, help: String) {
    self.name = name
    self.valueName = value
    self.help = help
  }

  /// `--catalog <path>` or `--json`, as in usage lines and messages.
  var synopsis: String { valueName.map { "\(name) <\($0)>" } ?? name }
}

/// A bad command line: the message names the argument; the exit code is 64.
struct UsageError: Error, Equatable {
  var message: String

  init(_ message: String) {
    self.message = message
  }
}
