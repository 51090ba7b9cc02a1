import Foundation

/// A product in a StoreKit configuration catalog: what the App Store would sell.
public struct Product: Sendable, Equatable, Identifiable {
  /// A product identifier as written in the catalog (`productID`).
  public struct ID: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
  {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public init(from decoder: any Decoder) throws {
      rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
    public var description: String { rawValue }
    public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public var id: ID
  public var kind: ProductKind
  /// The developer-facing name (`referenceName`).
  public var referenceName: String
  /// The price in the storefront's currency, exactly as written (`displayPrice`).
  public var price: Decimal
  public var familyShareable: Bool
  public var internalID: String
  public var localizations: [Localization]
  /// Present for auto-renewable subscriptions only.
  public var subscription: SubscriptionInfo?

  public init(
    id: ID, kind: ProductKind, referenceName: String, price: Decimal, familyShareable: Bool = false,
    internalID: String = "", localizations: [Localization] = [], subscription: SubscriptionInfo? = nil
  ) {
    self.id = id
    self.kind = kind
    self.referenceName = referenceName
    self.price = price
    self.familyShareable = familyShareable
    self.internalID = internalID
    self.localizations = localizations
    self.subscription = subscription
  }

  /// The localization for `locale`, falling back `ko_KR` → `ko` → `en_US` → `en` → the first one.
  public func localization(for locale: String) -> Localization? {
    Localization.best(in: localizations, for: locale)
  }

  /// The localized display name, or the reference name when the catalog has no localization.
  public func displayName(locale: String) -> String {
    let name = localization(for: locale)?.displayName ?? ""
    return name.isEmpty ? referenceName : name
  }

  /// The localized description, or an empty string.
  public func displayDescription(locale: String) -> String {
    localization(for: locale)?.description ?? ""
  }
}

/// What kind of thing a product is; decides how StoreKit treats buying it again and restoring it.
public enum ProductKind: String, Sendable, Equatable, Codable, CaseIterable {
  case consumable
  case nonConsumable
  case nonRenewingSubscription
  case autoRenewableSubscription

  /// The `type` string in a `.storekit` file.
  public var catalogName: String {
    switch self {
    case .consumable: "Consumable"
    case .nonConsumable: "NonConsumable"
    case .nonRenewingSubscription: "NonRenewingSubscription"
    case .autoRenewableSubscription: "RecurringSubscription"
    }
  }

  /// The `type` string Apple uses in signed transactions and server APIs.
  public var serverName: String {
    switch self {
    case .consumable: "Consumable"
    case .nonConsumable: "Non-Consumable"
    case .nonRenewingSubscription: "Non-Renewing Subscription"
    case .autoRenewableSubscription: "Auto-Renewable Subscription"
    }
  }

  /// A short lower-case label for tables.
  public var label: String {
    switch self {
    case .consumable: "consumable"
    case .nonConsumable: "non-consumable"
    case .nonRenewingSubscription: "non-renewing"
    case .autoRenewableSubscription: "subscription"
    }
  }

  public init?(catalogName: String) {
    guard let kind = Self.allCases.first(where: { $0.catalogName == catalogName }) else { return nil }
    self = kind
  }
}
