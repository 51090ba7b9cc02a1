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
      identifier. Add products with catalog add, or in the TUI's Catalog pane (storefront --catalog FILE). An existing \
      FILE is never replaced (exit 73). The global --storefront (default USA) and --locale (default en_US) set the \
      catalog's; exit 65 for a locale that does not exist.
      """,
    options: [],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    guard invocation.operands.count == 1, let path = invocation.operands.first else {
      throw invocation.usageError("catalog new needs FILE, such as Store.storekit.", for: descriptor)
    }
    let storefront = invocation.global.storefront ?? "USA"
    let locale = invocation.global.locale ?? "en_US"
    let bytes: [UInt8]
    do {
      bytes = try CatalogTextEditor.newCatalog(
        storefront: storefront, locale: locale,
        seed: UInt64.random(in: .min ... .max))
    } catch {
      throw CLIFailure("\(path): \(error.description); nothing was written", .dataError)
    }
    guard !FileManager.default.fileExists(atPath: path) else {
      throw CLIFailure("\(path) already exists; catalog new never replaces a file. Choose another name, or edit this one with catalog add and catalog set.", .cannotCreate)
    }
    let folder = (path as NSString).deletingLastPathComponent
    var isDirectory: ObjCBool = false
    if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) || !isDirectory.boolValue {
      throw CLIFailure(
        "\(path): the folder '\(folder)' does not exist; nothing was written. Make it first (mkdir -p '\(folder)') or choose another path.",
        .cannotCreate)
    }
    do { try CatalogFile.create(bytes, at: path) } catch { throw CLIFailure(error.description, .cannotCreate) }
    invocation.io.line("\(path): new catalog (storefront \(storefront), locale \(locale)); add products with: storefront catalog add \(path) consumable PRODUCT_ID")
    return .success
  }
}
