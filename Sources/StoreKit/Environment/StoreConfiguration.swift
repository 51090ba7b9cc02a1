import Foundation
package import StoreEngine

/// What the process's StoreKit environment opens: a catalog, where its ledger lives, and who the app is.
///
/// `SKTestSession` makes one from a `.storekit` file; without a session the process gets
/// ``StoreConfiguration/processDefault()``.
package struct StoreConfiguration: Sendable {
  /// The products the store sells, with the sandbox controls' defaults (`settings`).
  package var catalog: StoreEngine.Catalog
  /// Where the file came from, for messages.
  package var catalogPath: String?
  /// A storefront data directory (ledger, sandbox CA, receipts); nil keeps the store in memory.
  package var dataDirectory: URL?
  /// The app's bundle id, signed into every transaction.
  package var bundleID: String
  /// The sandbox account the app's purchases belong to (signed in when the store opens).
  package var account: String
  /// The virtual clock's start for a fresh ledger.
  package var start: Date

  package init(
    catalog: StoreEngine.Catalog, catalogPath: String? = nil, dataDirectory: URL? = nil,
    bundleID: String = StoreConfiguration.defaultBundleID(), account: String = StoreConfiguration.defaultAccount,
    start: Date = StoreConfiguration.wallClockStart()
  ) {
    self.catalog = catalog
    self.catalogPath = catalogPath
    self.dataDirectory = dataDirectory
    self.bundleID = bundleID
    self.account = account
    self.start = start
  }

  /// The account a test session's purchases are made by.
  package static let defaultAccount = "sandbox-tester"

  /// `STOREKIT_BUNDLE_ID`, else the main bundle's identifier, else the storefront's default.
  package static func defaultBundleID() -> String {
    if let id = ProcessInfo.processInfo.environment["STOREKIT_BUNDLE_ID"], !id.isEmpty { return id }
    if let id = Bundle.main.bundleIdentifier, !id.isEmpty { return id }
    return StoreEnvironment.defaultBundleID
  }

  /// Now on the wall clock, to the second: apps compare expiration dates with `Date()`, so the
  /// virtual clock starts where theirs is and moves only when a test advances it.
  package static func wallClockStart() -> Date {
    Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
  }

  /// The store a process gets when no `SKTestSession` was made: the `.storekit` file named by
  /// `STOREKIT_CONFIGURATION` (an empty catalog without one), in memory, with the data directory
  /// of `STOREKIT_DATA_DIR` if set.
  package static func processDefault() -> StoreConfiguration {
    let environment = ProcessInfo.processInfo.environment
    var catalog = StoreEngine.Catalog(products: [])
    var path: String?
    if let file = environment["STOREKIT_CONFIGURATION"], !file.isEmpty, let loaded = try? CatalogLoader.load(path: file) {
      catalog = loaded
      path = file
    }
    // Without a session there is no tester to answer a sheet.
    catalog.settings.disableDialogs = true
    let directory = environment["STOREKIT_DATA_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
    return StoreConfiguration(catalog: catalog, catalogPath: path, dataDirectory: directory)
  }
}
