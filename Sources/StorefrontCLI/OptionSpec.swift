/// One `--option` a command accepts: a flag, or an option with a value.
struct OptionSpec: Sendable, Equatable {
  /// `--json`, `--root`.
  var name: String
  /// The value's placeholder (`path`), or nil for a flag.
  var valueName: String?
  /// The value may be left out (`--serve` or `--serve 127.0.0.1:0`).
  var valueIsOptional = false
  /// Values that take the next word too, with its placeholder: `--app-finishes after-server <url>`.
  var valuesWithSecondWord: [String: String] = [:]
  var help: String

  init(_ name: String, value: String? = nil, help: String) {
    self.name = name
    self.valueName = value
    self.help = help
  }

  /// An option whose value may be left out: `--serve [<addr:port>]`.
  init(_ name: String, optionalValue: String, help: String) {
    self.init(name, value: optionalValue, help: help)
    valueIsOptional = true
  }

  /// `--catalog <path>`, `--serve [<addr:port>]` or `--json`, as in usage lines and messages.
  var synopsis: String {
    guard let valueName else { return name }
    return valueIsOptional ? "\(name) [<\(valueName)>]" : "\(name) <\(valueName)>"
  }
}

/// A bad command line: the message names the argument; the exit code is 64.
struct UsageError: Error, Equatable {
  var message: String

  init(_ message: String) {
    self.message = message
  }
}
