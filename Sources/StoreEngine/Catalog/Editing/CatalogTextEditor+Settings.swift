/// The catalog's `settings` block, and new catalogs.
extension CatalogTextEditor {
  /// One of the settings the editor changes.
  public enum Setting: Equatable, Sendable {
    case storefront(String)
    case locale(String)
    case timeRate(Int)
    case askToBuy(Bool)
    case failTransactions(Bool)
    case disableDialogs(Bool)

    /// The key under `settings`.
    var fileKey: String {
      switch self {
      case .storefront: "_storefront"
      case .locale: "_locale"
      case .timeRate: "_timeRate"
      case .askToBuy: "_askToBuyEnabled"
      case .failTransactions: "_failTransactionsEnabled"
      case .disableDialogs: "_disableDialogs"
      }
    }

    var value: JSONText {
      switch self {
      case .storefront(let code): .string(code)
      case .locale(let code): .string(code)
      case .timeRate(let rate): .number(String(rate))
      case .askToBuy(let on), .failTransactions(let on), .disableDialogs(let on): .bool(on)
      }
    }
  }

  /// Sets one setting, adding the `settings` block or the key when the file lacks them.
  public mutating func set(_ setting: Setting) throws(Failure) {
    switch setting {
    case .storefront(let code):
      guard let storefront = Storefront.lookup(code) else { throw .unknownStorefront(code) }
      return try setRaw(.storefront(storefront.code))
    case .locale(let code):
      guard CatalogLocale.isKnown(code) else { throw .unknownLocale(code) }
    case .timeRate(let rate):
      guard TimeRate.preset(rawValue: rate) != nil else {
        throw .invalidValue(key: "time rate", value: String(rate), hint: "use one of \(TimeRate.all.map { "\($0.rawValue) (\($0.name))" }.joined(separator: ", "))")
      }
    default: break
    }
    try setRaw(setting)
  }

  private mutating func setRaw(_ setting: Setting) throws(Failure) {
    let settings = JSONPath.root.appending("settings")
    if !text.exists(settings) { try set(settings, .object([]), template: Self.rootKeys) }
    try set(settings.appending(setting.fileKey), setting.value, template: text.map.keys(of: settings))
  }

  /// A new, empty catalog in the layout the current Xcode writes (format 4.0, which Xcode 16 and
  /// later open): every top-level key, the whole settings block, a random `identifier`.
  public static func newCatalog(storefront: String = "USA", locale: String = "en_US", seed: UInt64) throws(Failure) -> [UInt8] {
    guard let front = Storefront.lookup(storefront) else { throw .unknownStorefront(storefront) }
    guard CatalogLocale.isKnown(locale) else { throw .unknownLocale(locale) }
    var generator = SplitMix64(seed: seed)
    let identifier = String(format: "%08X", UInt32(truncatingIfNeeded: generator.next()))
    let root = JSONText.object([
      .init("appPolicies", .object([
        .init("eula", .string("")),
        .init("policies", .array([.object([.init("locale", .string(locale)), .init("policyText", .string("")), .init("policyURL", .string(""))])])),
      ])),
      .init("identifier", .string(identifier)),
      .init("nonRenewingSubscriptions", .array([])),
      .init("products", .array([])),
      .init("settings", .object([
        .init("_askToBuyEnabled", .bool(false)), .init("_billingGracePeriodEnabled", .bool(false)),
        .init("_billingIssuesEnabled", .bool(false)), .init("_disableDialogs", .bool(false)),
        .init("_failTransactionsEnabled", .bool(false)), .init("_locale", .string(locale)),
        .init("_renewalBillingIssuesEnabled", .bool(false)), .init("_storefront", .string(front.code)),
        .init("_storeKitErrors", .array([])), .init("_timeRate", .number("0")),
      ])),
      .init("subscriptionGroups", .array([])),
      .init("version", .object([.init("major", .number("4")), .init("minor", .number("0"))])),
    ])
    return Array((root.ordered(in: .xcode, at: .root) { _ in nil }.written(in: .xcode, indent: "") + "\n").utf8)
  }
}
