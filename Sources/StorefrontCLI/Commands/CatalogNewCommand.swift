import Foundation
import StoreEngine

/// `storefront catalog new FILE [--storefront S] [--locale L]`: an empty catalog as Xcode writes one.
enum CatalogNewCommand {
  static let descriptor = CommandDescriptor(
    path: ["catalog", "new"],
    arguments: "FILE",
    summary: "Create an empty .storekit file, laid out as the current Xcode writes one.",
    discussion: """
      Format 4.0 (which Xcode 16 and later open) with every top-level key, the whole settings block and a new \
      identifier. Add products with catalog add, or in the TUI's Catalog pane (storefront FILE). An existing \
      FILE is never replaced (exit 73). Exit 65 for a storefront or locale that does not exist.
      """,
    options: [
      OptionSpec("--storefront", value: "code", help: "The catalog's storefront, an ISO 3166-1 alpha-3 code (default USA)."),
      OptionSpec("--locale", value: "code", help: "The catalog's locale, such as en_US or ko_KR (default en_US)."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    guard invocation.operands.count == 1, let path = invocation.operands.first else {
      throw invocation.usageError("catalog new needs FILE, such as Store.storekit.", for: descriptor)
    }
    let bytes: [UInt8]
    do {
      bytes = try CatalogTextEditor.newCatalog(
        storefront: invocation.arguments.value("--storefront") ?? "USA", locale: invocation.arguments.value("--locale") ?? "en_US",
        seed: UInt64.random(in: .min ... .max))
    } catch {
      throw CLIFailure("\(path): \(error.description); nothing was written", .dataError)
    }
    guard !FileManager.default.fileExists(atPath: path) else {
      throw CLIFailure("\(path) already exists; catalog new never replaces a file. Choose another name, or edit this one with catalog add and catalog set.", .cannotCreate)
    }
    do { try CatalogFile.create(bytes, at: path) } catch { throw CLIFailure(error.description, .cannotCreate) }
    invocation.io.line("\(path): new catalog (storefront \(invocation.arguments.value("--storefront")?.uppercased() ?? "USA"), locale \(invocation.arguments.value("--locale") ?? "en_US")); add products with: storefront catalog add \(path) consumable PRODUCT_ID")
    return .success
  }
}
