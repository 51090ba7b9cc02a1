import StoreEngine

/// `storefront catalog show [PATH] [--json]`: the products with localized names and prices.
enum CatalogShowCommand {
  static let descriptor = CommandDescriptor(
    path: ["catalog", "show"],
    arguments: "[PATH] [--json] [--locale <id>] [--storefront <code>]",
    summary: "List products with localized names and formatted prices.",
    discussion: """
      PATH defaults to --catalog, else the built-in catalog. The storefront (currency) and locale \
      default to the catalog's settings (_storefront, _locale). Names fall back from ko_KR to ko, \
      then en_US, then the first localization.
      """,
    options: [OptionSpec("--json", help: "Print JSON: id, type, localized name and description, price, currency, formatted price, subscription period and group.")],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    guard invocation.operands.count <= 1 else {
      throw invocation.usageError("Unexpected argument '\(invocation.operands[1])': catalog show takes at most one PATH.", for: descriptor)
    }
    let path = invocation.operands.first ?? invocation.global.catalogPath
    let loaded: CatalogSource.Loaded
    switch CatalogSource.load(path) {
    case .success(let value):
      loaded = value
      loaded.reportWarnings(io: invocation.io)
    case .failure(let error): throw CatalogSource.failure(error, io: invocation.io)
    }
    let catalog = loaded.catalog
    let storefrontCode = invocation.global.storefront ?? catalog.settings.storefront
    let storefront = Storefront.lookup(storefrontCode) ?? .unitedStates
    let locale = invocation.global.locale ?? catalog.settings.locale
    let listing = ProductListing(catalog: catalog, displayPath: loaded.displayPath, storefront: storefront, locale: locale)
    if invocation.arguments.flag("--json") {
      do {
        invocation.io.write(try listing.json())
      } catch {
        throw CLIFailure("could not write JSON for '\(loaded.displayPath)': \(error).", .software)
      }
    } else {
      invocation.io.write(listing.table())
    }
    return .success
  }
}
