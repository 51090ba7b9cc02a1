import Foundation
import PostgreSQLLedger
import StoreEngine

/// The options every command accepts (the command-line contract, Docs/Commands.md), parsed once.
public struct GlobalOptions: Sendable, Equatable {
  /// `--catalog PATH`: the `.storekit` file; nil means the built-in catalog.
  public var catalogPath: String?
  /// `--data-dir DIR` as given; see ``dataDirectory(environment:)`` for the resolved directory.
  public var dataDirectory: String?
  /// `--account NAME`: the sandbox account to act as.
  public var account: String?
  /// `--seed N`: seed for simulated randomness.
  public var seed: UInt64?
  /// `--storefront CODE`, validated and upper-cased (`KOR`).
  public var storefront: String?
  /// `--locale ID` (`ko_KR`, `ja`, `zh_Hans`).
  public var locale: String?
  /// `--bundle-id ID`.
  public var bundleID: String?
  /// `--ledger postgresql://…`: a shared ledger on PostgreSQL instead of the data directory's SQLite file.
  public var ledger: String?
  /// `--key-file PATH`: the key that encrypts the private keys kept in a shared ledger.
  public var keyFile: String?
  /// `--clock-start DATE|now`: where a fresh ledger's virtual clock starts (``ClockStart``).
  public var clockStart: ClockStart?

  public init(
    catalogPath: String? = nil, dataDirectory: String? = nil, account: String? = nil, seed: UInt64? = nil,
    storefront: String? = nil, locale: String? = nil, bundleID: String? = nil
  ) {
    self.catalogPath = catalogPath
    self.dataDirectory = dataDirectory
    self.account = account
    self.seed = seed
    self.storefront = storefront
    self.locale = locale
    self.bundleID = bundleID
  }

  /// Where accounts, keys and the ledger live: `--data-dir`, else `$STOREFRONT_DATA_DIR`, else
  /// `$XDG_DATA_HOME/storefront`, else `$HOME/.local/share/storefront`. Empty variables are ignored,
  /// as the XDG spec asks.
  public func dataDirectory(environment: [String: String]) -> String {
    func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
    if let explicit = nonEmpty(dataDirectory) { return explicit }
    return DefaultDataDirectory.path(environment: environment)
  }

  /// The specs of the global options, in help order.
  static let specs: [OptionSpec] = [
    OptionSpec("--catalog", value: "path", help: "A .storekit catalog (default: the built-in Catalog/Default.storekit)."),
    OptionSpec("--data-dir", value: "dir", help: "Where accounts and the ledger live (default: $STOREFRONT_DATA_DIR, else $XDG_DATA_HOME/storefront, else ~/.local/share/storefront)."),
    OptionSpec("--account", value: "name", help: "The sandbox account to act as."),
    OptionSpec("--seed", value: "n", help: "Seed for simulated randomness, so a run replays identically."),
    OptionSpec("--storefront", value: "code", help: "App Store storefront, ISO 3166-1 alpha-3 (USA, KOR, JPN, CHN, GBR, DEU, …); sets the currency."),
    OptionSpec("--locale", value: "id", help: "Locale for product names and prices (en_US, ko_KR, ja_JP, zh_Hans, …)."),
    OptionSpec("--bundle-id", value: "id", help: "The app's bundle identifier, written into signed transactions."),
    OptionSpec("--ledger", value: "uri", help: "A shared ledger on PostgreSQL, postgresql://user@host/db (default: $STOREFRONT_LEDGER, else the SQLite ledger in the data directory). Put the password in ~/.pgpass or $PGPASSWORD."),
    OptionSpec("--clock-start", value: "date|now", help: ClockStart.help),
    OptionSpec("--key-file", value: "path", help: "The key-encryption key (64 hex digits) of the private keys kept in a shared ledger (default: $STOREFRONT_KEY_ENCRYPTION_KEY, else the file $STOREFRONT_KEY_FILE)."),
  ]

  /// Sets the option `name` (one of ``specs``) from its raw value.
  mutating func set(_ name: String, to value: String) throws(UsageError) {
    switch name {
    case "--catalog": catalogPath = value
    case "--data-dir": dataDirectory = value
    case "--account": account = value
    case "--seed":
      guard let seed = UInt64(value) else {
        throw UsageError("The value '\(value)' is invalid for '--seed <n>': expected a whole number from 0 to \(UInt64.max).")
      }
      self.seed = seed
    case "--storefront":
      guard let storefront = Storefront.lookup(value) else {
        let didYouMean = StorefrontSuggestion.didYouMean(for: value)
        throw UsageError("The value '\(value)' is invalid for '--storefront <code>': not an App Store storefront.\(didYouMean) Use an ISO 3166-1 alpha-3 code such as USA, KOR or JPN.")
      }
      self.storefront = storefront.code
    case "--locale":
      guard !value.isEmpty else { throw UsageError("The value for '--locale <id>' is empty: use a locale such as en_US, ko_KR or ja_JP.") }
      locale = value
    case "--bundle-id": bundleID = value
    case "--ledger":
      // The value is not repeated: it may hold a password.
      guard PostgreSQLAddress.isPostgreSQL(value) else {
        throw UsageError("The value for '--ledger <uri>' is not a PostgreSQL URI: use postgresql://user@host/database.")
      }
      ledger = value
    case "--key-file": keyFile = value
    case "--clock-start":
      guard let start = ClockStart(parsing: value) else {
        throw UsageError("The value '\(value)' is invalid for '--clock-start <date|now>': use 'now' or a date such as 2026-03-01 or 2026-03-01T09:30:00Z.")
      }
      clockStart = start
    default: break
    }
  }
}
