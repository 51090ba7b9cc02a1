import Foundation

/// An offer code as App Store Connect makes them (DECISIONS §45): a one-time-use code, random and
/// redeemable once, generated in batches; or a custom code the developer names, redeemable by up to
/// `limit` customers. Either may expire (on the store's virtual clock), and each customer redeems
/// one code per offer.
///
/// A code redeems an offer of one product. For an auto-renewable subscription the offer is one of
/// the catalog's `codeOffers` (its terms are the catalog's); for a consumable, non-consumable or
/// non-renewing subscription the offer is declared with its codes: a name and the price redeeming
/// charges (zero: free), and the transaction shows it as an offer code paid once
/// (`Transaction.Offer.PaymentMode.oneTime`, `offerDiscountType` `ONE_TIME`).
public struct OfferCode: Codable, Sendable, Equatable {
  /// App Store Connect's two kinds of codes.
  public enum Kind: String, Codable, Sendable, Equatable {
    /// Unique, random, redeemable once.
    case oneTime = "one-time"
    /// Named by the developer, redeemable by up to ``OfferCode/limit`` customers.
    case custom
  }

  /// The code, in capitals (customers type codes in any case).
  public var code: String
  public var kind: Kind
  public var productID: Product.ID
  /// A subscription's: the catalog code offer's id; another product's: the offer's own name.
  public var offerID: String
  /// What redeeming charges, for a product that is not an auto-renewable subscription (its decimal
  /// text; nil for a subscription, whose offer prices it).
  var priceText: String?
  /// How many customers may redeem it (1 for a one-time code).
  public var limit: Int
  /// When it stops being redeemable (the store's clock), if ever.
  public var expires: Date?
  /// How many customers redeemed it.
  public var redemptions: Int
  public var created: Date
  /// The batch a one-time code was generated in (`1`, `2`, … per offer).
  public var batch: Int?

  public init(
    code: String, kind: Kind, productID: Product.ID, offerID: String, price: Decimal? = nil, limit: Int,
    expires: Date?, redemptions: Int = 0, created: Date, batch: Int? = nil
  ) {
    self.code = code.uppercased()
    self.kind = kind
    self.productID = productID
    self.offerID = offerID
    self.priceText = price.map { "\($0)" }
    self.limit = limit
    self.expires = expires
    self.redemptions = redemptions
    self.created = created
    self.batch = batch
  }

  /// What redeeming charges for a product that is not an auto-renewable subscription.
  public var price: Decimal? { priceText.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) } }

  /// No redemption left.
  public var isUsedUp: Bool { redemptions >= limit }

  /// Expired at `now`.
  public func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

  /// The redemption URL App Store Connect gives for a code
  /// (`https://apps.apple.com/redeem?ctx=offercodes&id=APPID&code=CODE`).
  public func redemptionURL(appAppleID: String) -> String {
    "https://apps.apple.com/redeem?ctx=offercodes&id=\(appAppleID)&code=\(code)"
  }

  /// The code a typed text names: the text itself, or the `code` of a redemption URL.
  public static func typed(_ text: String) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.lowercased().hasPrefix("https://apps.apple.com/redeem"), let components = URLComponents(string: trimmed),
      let code = components.queryItems?.first(where: { $0.name == "code" })?.value, !code.isEmpty
    {
      return code
    }
    return trimmed
  }
}

/// Where the store keeps its offer codes: device values (`LedgerChange.setDeviceValue`), which every
/// ledger (SQLite, PostgreSQL) stores and the commit log carries (DECISIONS §45).
public enum OfferCodeBook {
  static let codePrefix = "offer-code."
  static let usePrefix = "offer-code-use."
  static let pendingPrefix = "offer-code-pending."

  /// Every code in `values`, ordered by product, offer, batch and code.
  public static func codes(in values: [String: String]) -> [OfferCode] {
    values.compactMap { key, value -> OfferCode? in
      guard key.hasPrefix(codePrefix) else { return nil }
      return decode(value)
    }.sorted { ($0.productID.rawValue, $0.offerID, $0.batch ?? 0, $0.code) < ($1.productID.rawValue, $1.offerID, $1.batch ?? 0, $1.code) }
  }

  /// The code `code` (any case) in `values`.
  public static func code(_ code: String, in values: [String: String]) -> OfferCode? {
    values[codeKey(code)].flatMap(decode)
  }

  static func codeKey(_ code: String) -> String { codePrefix + code.uppercased() }

  /// The key that records that `account` redeemed a code of the offer (one per customer per offer).
  static func useKey(product: Product.ID, offer: String, account: String) -> String {
    usePrefix + product.rawValue + "\u{1F}" + offer + "\u{1F}" + account
  }

  /// The key that holds the code a purchase in progress redeems.
  static func pendingKey(_ id: PaymentTransaction.ID) -> String { pendingPrefix + String(id.rawValue) }

  static func encode(_ code: OfferCode) -> String {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    encoder.outputFormatting = .sortedKeys
    return (try? encoder.encode(code)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  static func decode(_ value: String) -> OfferCode? {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    return try? decoder.decode(OfferCode.self, from: Data(value.utf8))
  }
}
