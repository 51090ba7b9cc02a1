/// Every subcommand of `storefront`, in help order, and how a command line selects one.
enum CommandRegistry {
  /// All commands of the command-line contract (Docs/Commands.md). To add one: write `Commands/XCommand.swift` with a
  /// `descriptor` and list it here.
  static let all: [CommandDescriptor] = [
    InteractiveCommand.descriptor,
    CatalogCheckCommand.descriptor,
    CatalogShowCommand.descriptor,
    CatalogNewCommand.descriptor,
    CatalogAddCommand.descriptor,
    CatalogSetCommand.descriptor,
    CatalogRemoveCommand.descriptor,
    RunCommand.descriptor,
    TransactionsCommand.descriptor,
    VerifyCommand.descriptor,
    CertificateCommand.descriptor,
    ServeCommand.descriptor,
    KeysCreateCommand.descriptor,
    KeysImportCommand.descriptor,
    KeysListCommand.descriptor,
    KeysRevokeCommand.descriptor,
    KeysExportCommand.descriptor,
    KeysSharedSecretCommand.descriptor,
    ReceiptCommand.descriptor,
    NotificationsCommand.descriptor,
    NotificationsURLCommand.descriptor,
    RetentionReviewCommand.descriptor,
    OfferCodesCommand.generate,
    OfferCodesCommand.create,
    OfferCodesCommand.list,
  ]

  /// Command groups that only hold subcommands (`catalog`).
  static var groups: [String] {
    var seen: [String] = []
    for command in all where command.path.count > 1 && !seen.contains(command.path[0]) {
      seen.append(command.path[0])
    }
    return seen
  }

  /// What a list of positional arguments selects.
  enum Selection {
    case command(CommandDescriptor, operands: [String])
    /// A group word without (or with an unknown) subcommand: `storefront catalog`.
    case group(String, unknown: String?)
    case unknown(String)
  }

  static func select(_ positionals: [String]) -> Selection {
    let best = all.filter { !$0.path.isEmpty && positionals.starts(with: $0.path) }
      .max { $0.path.count < $1.path.count }
    if let best { return .command(best, operands: Array(positionals.dropFirst(best.path.count))) }
    guard let first = positionals.first else {
      return .command(InteractiveCommand.descriptor, operands: [])
    }
    if groups.contains(first) { return .group(first, unknown: positionals.dropFirst().first) }
    return .unknown(first)
  }

  /// The subcommands of `group`.
  static func members(of group: String) -> [CommandDescriptor] {
    all.filter { $0.path.count > 1 && $0.path[0] == group }
  }

}
