/// A subcommand of `storefront`: its words, help, options and what it runs.
///
/// Each command lives in one file under `Commands/` as an enum with a `descriptor`, and is listed
/// once in ``CommandRegistry/all``.
struct CommandDescriptor: Sendable {
  /// The words after `storefront` that select it (`["catalog", "show"]`); empty for the default.
  var path: [String]
  /// Arguments after the words, for usage lines: `[PATH] [--json]`.
  var arguments: String
  /// One line for the command list.
  var summary: String
  /// Paragraphs for `--help`.
  var discussion: String
  /// Options besides the global ones.
  var options: [OptionSpec]
  /// Runs the command and returns the exit code, or throws what stopped it (reported once, by
  /// ``StorefrontCLI/main(_:environment:io:)``).
  var run: @Sendable (Invocation) throws(CLIFailure) -> ExitCode

  init(
    path: [String], arguments: String = "", summary: String, discussion: String = "", options: [OptionSpec] = [],
    run: @escaping @Sendable (Invocation) throws(CLIFailure) -> ExitCode
  ) {
    self.path = path
    self.arguments = arguments
    self.summary = summary
    self.discussion = discussion
    self.options = options
    self.run = run
  }

  /// `storefront catalog show [PATH] [--json] …`.
  var usage: String {
    (["storefront"] + path + (arguments.isEmpty ? [] : [arguments])).joined(separator: " ")
  }

  /// `catalog show`, or `storefront` for the default command.
  var name: String { path.isEmpty ? "storefront" : path.joined(separator: " ") }
}

/// Everything a command needs to run: parsed arguments, environment and where to write.
struct Invocation {
  var arguments: ParsedArguments
  /// Positional arguments after the command's words.
  var operands: [String]
  var environment: [String: String]
  var io: any ConsoleIO

  var global: GlobalOptions { arguments.global }

  /// A usage error the way argument-parser words it (64, then the usage line and where help is), to throw.
  func usageError(_ message: String, for command: CommandDescriptor) -> CLIFailure {
    CLIFailure(
      message, .usage,
      notes: [
        "Usage: \(command.usage)",
        "  See '\(command.path.isEmpty ? "storefront" : "storefront " + command.name) --help' for more information.",
      ])
  }
}
