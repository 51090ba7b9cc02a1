/// A loaded, validated StoreKit configuration: every product with its localizations and offers.
public struct Catalog: Sendable, Equatable {
  /// The file format version (`version.major`, `version.minor`).
  public var formatVersion: FormatVersion
  public var identifier: String?
  /// Every product, in file order: `products`, then `nonRenewingSubscriptions`, then each group's
  /// subscriptions.
  public private(set) var products: [Product]
  /// Every group in file order: `subscriptionGroups`, then (format 6.x) `subscriptionBundleGroups`
  /// and `subscriptionSuiteGroups`; ``SubscriptionGroup/kind`` tells them apart.
  public var subscriptionGroups: [SubscriptionGroup]
  public var settings: CatalogSettings
  /// What the file was read despite (a decimal comma, a newer minor format version), located.
  public var warnings: [CatalogIssue] = []
  private var index: [Product.ID: Int]

  public struct FormatVersion: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public init(major: Int, minor: Int) {
      self.major = major
      self.minor = minor
    }
    public var description: String { "\(major).\(minor)" }
    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }
  }

  public init(
    formatVersion: FormatVersion = .init(major: 4, minor: 0), identifier: String? = nil,
    products: [Product], subscriptionGroups: [SubscriptionGroup] = [], settings: CatalogSettings = .init()
  ) {
    self.formatVersion = formatVersion
    self.identifier = identifier
    self.products = products
    self.subscriptionGroups = subscriptionGroups
    self.settings = settings
    var index: [Product.ID: Int] = [:]
    for (offset, product) in products.enumerated() where index[product.id] == nil {
      index[product.id] = offset
    }
    self.index = index
  }

  /// The product with `id`, in O(1).
  public func product(_ id: Product.ID) -> Product? {
    index[id].map { products[$0] }
  }

  public func group(_ id: String) -> SubscriptionGroup? {
    subscriptionGroups.first { $0.id == id }
  }

  public static func == (lhs: Catalog, rhs: Catalog) -> Bool {
    lhs.formatVersion == rhs.formatVersion && lhs.identifier == rhs.identifier
      && lhs.products == rhs.products && lhs.subscriptionGroups == rhs.subscriptionGroups
      && lhs.settings == rhs.settings && lhs.warnings == rhs.warnings
  }
}
