import Foundation
internal import StoreEngine

/// Storefront's own: App Store Connect's offer codes for a test (DECISIONS §45), as
/// `storefront offer-codes` and the scenario verbs make them.
extension SKTestSession {
  /// Generates `count` one-time-use codes for `offer` of the product (a subscription's catalog
  /// code offer by id or reference name; any other product's offer by name, redeemed for `price`,
  /// default free); returns them. They expire six months later, or `expiresAfter` seconds on the
  /// store's clock.
  public func generateOfferCodes(
    productIdentifier: String, offer: String, count: Int, price: Decimal? = nil, expiresAfter: TimeInterval? = nil
  ) throws -> [String] {
    let before = Set(offerCodes.map(\.code))
    let request = OfferCodeOffer(productID: .init(productIdentifier), offer: offer, price: price)
    try perform(.offerCodes(.generate(request, count: count, expires: expiresAfter.map(Self.expiry))))
    return offerCodes.map(\.code).filter { !before.contains($0) }
  }

  /// Creates the custom code `code` for `offer` of the product, redeemable by up to `limit`
  /// customers, until `expiresAfter` seconds on the store's clock (nil: never).
  public func createOfferCode(
    _ code: String, productIdentifier: String, offer: String, limit: Int = 1, price: Decimal? = nil,
    expiresAfter: TimeInterval? = nil
  ) throws {
    let request = OfferCodeOffer(productID: .init(productIdentifier), offer: offer, price: price)
    try perform(.offerCodes(.create(code, request, limit: limit, expires: expiresAfter.map(Self.expiry))))
  }

  /// How many customers redeemed `code`, nil for a code the store does not have.
  public func redemptions(ofOfferCode code: String) -> Int? {
    offerCodes.first { $0.code == code.uppercased() }?.redemptions
  }

  private var offerCodes: [OfferCode] { (try? environment.read { $0.queue.offerCodes }) ?? [] }

  private static func expiry(_ seconds: TimeInterval) -> OfferCodeExpiry {
    var expiry = OfferCodeExpiry()
    expiry.seconds = Int(seconds.rounded(.up))
    return expiry
  }
}
