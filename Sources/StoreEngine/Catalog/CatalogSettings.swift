/// The `settings` block of a `.storekit` file: defaults for the sandbox controls.
public struct CatalogSettings: Sendable, Equatable {
  /// ISO 3166-1 alpha-3 storefront, default `USA`.
  public var storefront: String = "USA"
  /// POSIX locale, default `en_US`.
  public var locale: String = "en_US"
  /// `SKTestTimeRate` raw value (0 = real time).
  public var timeRate: Int = 0
  public var askToBuyEnabled = false
  public var failTransactionsEnabled = false
  public var disableDialogs = false
  public var billingGracePeriodEnabled = false
  public var renewalBillingIssuesEnabled = false
  public var billingIssuesEnabled = false
  public var storeKitErrors: [StoreKitErrorSetting] = []

  public init() {}
}

/// One entry of `_storeKitErrors`: a simulated error for one StoreKit API.
public struct StoreKitErrorSetting: Sendable, Equatable {
  /// One of the nine API names, e.g. "Load Products", "Purchase".
  public var name: String
  public var enabled: Bool
  /// `current.index`, the error's case index, when set.
  public var errorIndex: Int?
  /// `current.type`, e.g. "generic".
  public var errorType: String?

  public init(name: String, enabled: Bool, errorIndex: Int? = nil, errorType: String? = nil) {
    self.name = name
    self.enabled = enabled
    self.errorIndex = errorIndex
    self.errorType = errorType
  }
}
