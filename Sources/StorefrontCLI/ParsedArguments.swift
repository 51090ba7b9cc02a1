/// A command line split into global options, command options and positional arguments.
///
/// Options may come before or after the subcommand and take values as `--name value` or
/// `--name=value`; `--` ends options. Parsing follows swift-argument-parser's conventions.
struct ParsedArguments: Equatable {
  var global = GlobalOptions()
  /// Command options by name; flags map to nil.
  var options: [String: String?] = [:]
  /// Positional arguments, including the subcommand's words.
  var positionals: [String] = []
  var helpRequested = false
  var versionRequested = false

  /// Whether the flag `name` was given.
  func flag(_ name: String) -> Bool { options[name] != nil }

  /// The value of option `name`, if given.
  func value(_ name: String) -> String? { options[name] ?? nil }

  /// Parses `arguments` (without the program name).
  ///
  /// - Parameters:
  ///   - commandOptions: The selected command's own options; nil while the command is not
  ///     yet known, when unknown options are kept as flags so the subcommand's words can be found.
  ///   - rootOptions: The default command's options, known while the command is not, so the
  ///     optional value of `--serve 127.0.0.1:0` is not taken for a subcommand.
  static func parse(
    _ arguments: [String], commandOptions: [OptionSpec]?, rootOptions: [OptionSpec] = []
  ) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        parsed.helpRequested = true
        continue
      }
      if argument == "--version" {
        parsed.versionRequested = true
        continue
      }
      let (name, inlineValue) = split(argument)
      let known = GlobalOptions.specs + (commandOptions ?? rootOptions)
      guard let spec = known.first(where: { $0.name == name }) else {
        if commandOptions == nil {
          parsed.options[name] = .some(inlineValue)
          continue
        }
        throw unknownOption(name, known: known)
      }
      var value: String?
      if spec.valueName != nil {
        if let inlineValue {
          value = inlineValue
        } else if spec.valueIsOptional {
          // The next word is the value unless it is an option or a subcommand.
          if index < arguments.count, !arguments[index].hasPrefix("-"), !isCommandWord(arguments[index]) {
            value = arguments[index]
            index += 1
          }
        } else if index < arguments.count, !arguments[index].hasPrefix("--") {
          value = arguments[index]
          index += 1
        } else {
          throw UsageError("Missing value for '\(spec.synopsis)'.")
        }
        if let first = value, inlineValue == nil, let placeholder = spec.valuesWithSecondWord[first] {
          guard index < arguments.count, !arguments[index].hasPrefix("--") else {
            throw UsageError("Missing <\(placeholder)> after '\(spec.name) \(first)': write '\(spec.name) \(first) <\(placeholder)>'.")
          }
          value = first + " " + arguments[index]
          index += 1
        }
      } else if inlineValue != nil {
        throw UsageError("The flag '\(name)' does not take a value.")
      }
      if GlobalOptions.specs.contains(spec), let value {
        try parsed.global.set(name, to: value)
      } else {
        parsed.options[name] = .some(value)
      }
    }
    return parsed
  }

  private static func isCommandWord(_ word: String) -> Bool {
    word == "help" || CommandRegistry.all.contains { $0.path.first == word }
  }

  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  static func unknownOption(_ name: String, known: [OptionSpec]) -> UsageError {
    let names = known.map(\.name) + ["--help", "--version"]
    let suggestion = NearMatchText.didYouMean(name, in: names)
    return UsageError("Unknown option '\(name)'.\(suggestion)")
  }
}
