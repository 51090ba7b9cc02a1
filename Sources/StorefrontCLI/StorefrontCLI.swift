import Foundation
import StoreEngine

/// The `storefront` command line: parses arguments, picks a command and runs it.
///
/// ```swift
/// let code = StorefrontCLI.main(Array(CommandLine.arguments.dropFirst()),
///                               environment: ProcessInfo.processInfo.environment,
///                               io: StandardConsole())
/// exit(code)
/// ```
public enum StorefrontCLI {
  /// The version `--version` prints.
  public static let version = "0.1.0"

  /// Runs one command line and returns the process exit code (sysexits: 0, 64, 65, 66, 69, …).
  ///
  /// - Parameters:
  ///   - arguments: The arguments **without** the program name (`CommandLine.arguments.dropFirst()`).
  ///   - environment: The process environment (`STOREFRONT_DATA_DIR`, `XDG_DATA_HOME`, `HOME`, …).
  ///   - io: Where to write; tests pass a ``CapturedConsole``.
  public static func main(_ arguments: [String], environment: [String: String], io: any ConsoleIO) -> Int32 {
    // The one place a failure becomes text and an exit code (argument-parser's `exit(withError:)`).
    do throws(CLIFailure) {
      return try select(arguments, environment: environment, io: io).rawValue
    } catch {
      return error.report(to: io).rawValue
    }
  }

  private static func select(_ arguments: [String], environment: [String: String], io: any ConsoleIO) throws(CLIFailure) -> ExitCode {
    var root = InteractiveCommand.descriptor
    root.arguments = "[<options>] [<subcommand>]"
    let firstPass: ParsedArguments
    do {
      firstPass = try ParsedArguments.parse(arguments, commandOptions: nil, rootOptions: root.options)
    } catch {
      throw Invocation(arguments: ParsedArguments(), operands: [], environment: environment, io: io).usageError(error.message, for: root)
    }
    var positionals = firstPass.positionals
    if positionals.first == "help" {
      positionals.removeFirst()
      return try help(for: positionals, io: io)
    }
    if firstPass.versionRequested && positionals.isEmpty {
      io.line(version)
      return .success
    }
    switch CommandRegistry.select(positionals) {
    case .unknown(let word):
      let invocation = Invocation(arguments: firstPass, operands: [], environment: environment, io: io)
      // `--acount mina`: the word is the value of a misspelled option, which is what to name.
      if let position = arguments.firstIndex(of: word), position > 0 {
        let previous = arguments[position - 1]
        let known = GlobalOptions.specs + root.options
        if previous.hasPrefix("--"), !previous.contains("="), !known.contains(where: { $0.name == previous }) {
          throw invocation.usageError(ParsedArguments.unknownOption(previous, known: known).message, for: root)
        }
      }
      throw invocation.usageError(unknownCommandMessage(word), for: root)
    case .group(let group, let unknown):
      if let unknown, !firstPass.helpRequested {
        let names = CommandRegistry.members(of: group).map { $0.path.dropFirst().joined(separator: " ") }
        let descriptor = CommandDescriptor(path: [group], arguments: "<subcommand>", summary: "") { invocation in
          invocation.io.write(HelpText.group(group))
          return .success
        }
        throw Invocation(arguments: firstPass, operands: [], environment: environment, io: io)
          .usageError("Unknown subcommand '\(unknown)' for '\(group)'.\(NearMatchText.didYouMean(unknown, in: names))", for: descriptor)
      }
      io.write(HelpText.group(group))
      return .success
    case .command(let command, let operands):
      if firstPass.helpRequested {
        io.write(command.path.isEmpty ? HelpText.root() : HelpText.command(command))
        return .success
      }
      let parsed: ParsedArguments
      do {
        parsed = try ParsedArguments.parse(arguments, commandOptions: command.options)
      } catch {
        throw Invocation(arguments: firstPass, operands: operands, environment: environment, io: io).usageError(error.message, for: command)
      }
      // The first pass could not know which options take values, so operands come from this pass.
      let invocation = Invocation(
        arguments: parsed, operands: Array(parsed.positionals.dropFirst(command.path.count)), environment: environment, io: io)
      return try command.run(invocation)
    }
  }

  private static func help(for words: [String], io: any ConsoleIO) throws(CLIFailure) -> ExitCode {
    if words.isEmpty {
      io.write(HelpText.root())
      return .success
    }
    switch CommandRegistry.select(words) {
    case .command(let command, _):
      io.write(HelpText.command(command))
      return .success
    case .group(let group, _):
      io.write(HelpText.group(group))
      return .success
    case .unknown(let word):
      throw CLIFailure(unknownCommandMessage(word), .usage, notes: ["  See 'storefront --help' for the list of commands."])
    }
  }

  private static func unknownCommandMessage(_ word: String) -> String {
    let names = CommandRegistry.all.compactMap(\.path.first) + ["help"]
    var message = "Unknown command '\(word)'.\(NearMatchText.didYouMean(word, in: names))"
    if word.hasSuffix(".storekit") || word.contains("/") {
      message += " To use a catalog, pass it as 'storefront --catalog \(word)' or 'storefront catalog show \(word)'."
    }
    return message
  }
}
