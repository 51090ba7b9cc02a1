/// An App Store storefront: the country or region whose currency prices a catalog.
///
/// A `.storekit` file stores prices as bare numbers; the currency comes from the storefront
/// (`settings._storefront`, an ISO 3166-1 alpha-3 code), as in Xcode's StoreKit testing.
///
/// ```swift
/// Storefront.lookup("KOR")?.currencyCode  // "KRW"
/// Storefront.lookup("kor")?.id            // 143466
/// ```
public struct Storefront: Sendable, Hashable, Identifiable {
  /// ISO 3166-1 alpha-3 code, as StoreKit's `Storefront.countryCode` (`"USA"`).
  public var code: String
  /// Apple's numeric storefront identifier, as StoreKit's `Storefront.id` (`143441` for USA).
  public var id: Int
  /// ISO 4217 code of the currency the App Store charges in this storefront.
  public var currencyCode: String
  /// A POSIX locale for the storefront's main language, used when no locale is chosen.
  public var defaultLocale: String
  /// English name of the country or region.
  public var name: String

  public init(_ code: String, _ id: Int, _ currencyCode: String, _ defaultLocale: String, _ name: String) {
    self.code = code
    self.id = id
    self.currencyCode = currencyCode
    self.defaultLocale = defaultLocale
    self.name = name
  }

  /// Every App Store storefront (175), sorted by code.
  public static var all: [Storefront] { table }

  /// The storefront for an alpha-3 code, ignoring case; `XKX` is accepted for Kosovo (`XKS`).
  ///
  /// - Complexity: O(1).
  public static func lookup(_ code: String) -> Storefront? {
    let wanted = code.uppercased()
    return byCode[wanted] ?? aliases[wanted].flatMap { byCode[$0] }
  }

  /// The storefront with Apple's numeric identifier, e.g. `143466` → KOR.
  public static func lookup(id: Int) -> Storefront? {
    table.first { $0.id == id }
  }

  /// Storefronts whose code is one edit from `code` (`USB` → USA, UZB), nearest first: for
  /// "did you mean" when a code is not a storefront.
  public static func nearMatches(to code: String, limit: Int = 3) -> [Storefront] {
    NearMatch.all(near: code.uppercased(), in: table.map(\.code), limit: limit).compactMap { byCode[$0] }
  }

  /// The United States storefront, StoreKit testing's default.
  public static var unitedStates: Storefront {
    Storefront("USA", 143441, "USD", "en_US", "United States")
  }

  private static let byCode: [String: Storefront] = Dictionary(
    table.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

  // App Store Connect writes Kosovo as XKS; Apple's MusicKit table writes XKX.
  private static let aliases: [String: String] = ["XKX": "XKS"]
}
