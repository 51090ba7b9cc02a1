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
  /// The `environment` signed into transactions: `Sandbox`, or `Xcode` for an `SKTestSession`'s store
  /// (as Xcode's StoreKit Testing signs them).
  package var signingEnvironment = "Sandbox"
  /// How the app is attached to a storefront on its data directory (nil: a test session's store,
  /// which answers its own sheets).
  package var attachment: Attachment?

  /// An app process attached to a store without an `SKTestSession` (DECISIONS §37): its sheets are
  /// answered by a storefront TUI on the same data directory.
  package struct Attachment: Sendable {
    /// Answer sheets without a storefront (`STOREFRONT_DIALOGS=off`, or the catalog's dialogs off).
    package var answersItself: Bool
    /// How long a sheet waits for a storefront when none is attached (`STOREFRONT_SHEET_TIMEOUT`).
    package var timeout: TimeInterval
    /// Whether the catalog is the one a storefront on the data directory runs (the app named none).
    package var catalogFromStorefront = false
    /// A shared ledger's URI (`STOREFRONT_LEDGER`): the store is the team's PostgreSQL database.
    package var ledger: String?
    /// The variables that name the shared ledger's key-encryption key.
    package var environment: [String: String] = [:]
  }

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

  /// The store a process gets when no `SKTestSession` was made: the app attaches to a storefront
  /// data directory (`STOREFRONT_DATA_DIR`, else `STOREKIT_DATA_DIR`, else the CLI's default:
  /// `$XDG_DATA_HOME/storefront`, else `~/.local/share/storefront`) under its bundle id
  /// (`STOREFRONT_BUNDLE_ID`, else `STOREKIT_BUNDLE_ID`, else the main bundle's, else the
  /// executable's name), on the `.storekit` file of `STOREKIT_CONFIGURATION`, else the one a
  /// storefront on that directory runs (read when the store opens), else an empty catalog.
  package static func processDefault() -> StoreConfiguration {
    processDefault(environment: ProcessInfo.processInfo.environment)
  }

  package static func processDefault(environment: [String: String]) -> StoreConfiguration {
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    var catalog = StoreEngine.Catalog(products: [])
    var path: String?
    if let file = value("STOREKIT_CONFIGURATION"), let loaded = try? CatalogLoader.load(path: file) {
      catalog = loaded
      path = file
    }
    let answersItself = value("STOREFRONT_DIALOGS").map { $0 == "off" } ?? catalog.settings.disableDialogs
    // Sheets wait for a storefront's answer (or are answered by the attachment itself).
    catalog.settings.disableDialogs = false
    let directory = URL(fileURLWithPath: dataDirectoryPath(environment: environment), isDirectory: true)
    let bundleID = value("STOREFRONT_BUNDLE_ID") ?? value("STOREKIT_BUNDLE_ID") ?? Bundle.main.bundleIdentifier
      ?? ProcessInfo.processInfo.processName
    var configuration = StoreConfiguration(catalog: catalog, catalogPath: path, dataDirectory: directory, bundleID: bundleID)
    configuration.attachment = Attachment(
      answersItself: answersItself, timeout: value("STOREFRONT_SHEET_TIMEOUT").flatMap(TimeInterval.init) ?? 30,
      ledger: value("STOREFRONT_LEDGER"),
      environment: environment.filter { $0.key == "STOREFRONT_KEY_ENCRYPTION_KEY" || $0.key == "STOREFRONT_KEY_FILE" })
    return configuration
  }

  /// The data directory an attached app uses: as the CLI's `--data-dir` default.
  package static func dataDirectoryPath(environment: [String: String]) -> String {
    if environment["STOREFRONT_DATA_DIR"]?.isEmpty ?? true, let legacy = environment["STOREKIT_DATA_DIR"], !legacy.isEmpty {
      return legacy
    }
    return DefaultDataDirectory.path(environment: environment)
  }
}
