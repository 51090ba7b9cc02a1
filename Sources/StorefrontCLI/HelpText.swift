import StoreTUI

/// `--help` text, in swift-argument-parser's layout (OVERVIEW, USAGE, OPTIONS, SUBCOMMANDS).
enum HelpText {
  static let overview = "A keyboard-driven terminal storefront that simulates StoreKit in-app purchases."

  /// Help for `storefront` itself.
  static func root() -> String {
    var text = "OVERVIEW: \(overview)\n\n"
    text += "USAGE: storefront [--catalog <path>] [--data-dir <dir>] [--account <name>] [--seed <n>]\n"
    text += "                  [--storefront <code>] [--locale <id>] [--bundle-id <id>] [--ledger <uri>] [--serve [<addr:port>]]\n"
    text += "       storefront <subcommand> [<options>]\n\n"
    text += "OPTIONS:\n" + optionList(InteractiveCommand.descriptor.options + GlobalOptions.specs + standardFlags) + "\n"
    text += "SUBCOMMANDS:\n"
    let rows = CommandRegistry.all.map { command in
      (command.path.isEmpty ? "(none)" : command.name, command.summary)
    }
    text += table(rows) + "\n"
    text += "  See 'storefront help <subcommand>' for detailed help.\n\n"
    text += "EXIT CODES:\n" + table(ExitCode.documented.map { ($0.code.description, $0.meaning) })
    return text
  }

  /// Help for one command.
  static func command(_ command: CommandDescriptor) -> String {
    var text = "OVERVIEW: \(command.summary)\n"
    if !command.discussion.isEmpty { text += "\n\(command.discussion)\n" }
    text += "\nUSAGE: \(command.usage)\n\n"
    text += "OPTIONS:\n" + optionList(command.options + GlobalOptions.specs + [standardFlags[0]])
    return text
  }

  /// Help for a group such as `catalog`.
  static func group(_ group: String) -> String {
    var text = "OVERVIEW: \(groupOverviews[group] ?? "")\n\n"
    text += "USAGE: storefront \(group) <subcommand>\n\n"
    text += "SUBCOMMANDS:\n"
    text += table(CommandRegistry.members(of: group).map { ($0.path.dropFirst().joined(separator: " "), $0.summary) }) + "\n"
    text += "  See 'storefront help \(group) <subcommand>' for detailed help.\n"
    return text
  }

  private static let groupOverviews = [
    "catalog": "Work with .storekit catalogs.",
    "keys": "Manage the API keys `storefront serve` accepts.",
    "offer-codes": "Make and list offer codes, as App Store Connect does (one-time-use batches, custom codes).",
    "retention": "Retention Messaging settings of the ledger (`storefront serve` answers its API).",
  ]

  private static let standardFlags = [
    OptionSpec("-h, --help", help: "Show help information."),
    OptionSpec("--version", help: "Show the version."),
  ]

  private static func optionList(_ specs: [OptionSpec]) -> String {
    table(specs.map { ($0.synopsis, $0.help) })
  }

  /// Two columns, the second wrapped at 100 columns and aligned.
  private static func table(_ rows: [(String, String)]) -> String {
    let indent = 2
    let firstWidth = min(24, (rows.map { $0.0.displayWidth }.max() ?? 0) + 2)
    let wrapWidth = 100 - indent - firstWidth
    var text = ""
    for (left, right) in rows {
      let lines = wrap(right, width: wrapWidth)
      let pad = String(repeating: " ", count: indent)
      if left.displayWidth + 2 > firstWidth {
        text += pad + left + "\n"
        for line in lines { text += pad + String(repeating: " ", count: firstWidth) + line + "\n" }
      } else {
        for (index, line) in lines.enumerated() {
          text += pad + (index == 0 ? left.padded(toWidth: firstWidth) : String(repeating: " ", count: firstWidth)) + line + "\n"
        }
      }
    }
    return text
  }

  private static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty, current.displayWidth + 1 + word.count > width {
        lines.append(current)
        current = ""
      }
      current += current.isEmpty ? String(word) : " " + word
    }
    if !current.isEmpty || lines.isEmpty { lines.append(current) }
    return lines
  }
}
