import Foundation

/// What App Store Connect's offer-code pages do (``StoreCommand/offerCodes(_:)``).
public enum OfferCodeCommand: Sendable, Equatable {
  /// One-time-use codes: `count` random codes of the offer, redeemable once each, until `expires`
  /// (at most six months ahead, as App Store Connect allows; nil: six months).
  case generate(OfferCodeOffer, count: Int, expires: OfferCodeExpiry?)
  /// A custom code named `code`: redeemable by up to `limit` customers, until `expires` (nil: never).
  case create(String, OfferCodeOffer, limit: Int, expires: OfferCodeExpiry?)
}

/// When codes stop being redeemable: a moment, or a span after the store's clock when they are made.
/// (Plain fields, not `DateComponents` in an enum: that payload was miscompiled on a thrown error.)
public struct OfferCodeExpiry: Sendable, Equatable {
  /// A fixed moment, if it is one.
  public var moment: Date?
  public var months = 0
  public var days = 0
  public var seconds = 0

  public init(moment: Date? = nil, months: Int = 0, days: Int = 0, seconds: Int = 0) {
    self.moment = moment
    self.months = months
    self.days = days
    self.seconds = seconds
  }

  /// At `date`.
  public static func at(_ date: Date) -> OfferCodeExpiry { OfferCodeExpiry(moment: date) }

  /// Calendar components (UTC) after the store's clock: `30d`, `P3M` in a scenario.
  public static func after(_ components: DateComponents) -> OfferCodeExpiry {
    OfferCodeExpiry(
      moment: nil, months: (components.year ?? 0) * 12 + (components.month ?? 0),
      days: (components.weekOfYear ?? 0) * 7 + (components.day ?? 0),
      seconds: (components.hour ?? 0) * 3_600 + (components.minute ?? 0) * 60 + (components.second ?? 0))
  }

  /// The moment, with the store's clock at `now`.
  public func date(from now: Date) -> Date {
    if let moment { return moment }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let components = DateComponents(month: months, day: days, second: seconds)
    return calendar.date(byAdding: components, to: now) ?? now
  }
}

/// The offer a code redeems: a product and, for an auto-renewable subscription, one of its catalog
/// code offers (by id or reference name); for any other product the offer's name and its price.
public struct OfferCodeOffer: Sendable, Equatable {
  public var productID: Product.ID
  public var offer: String
  /// What redeeming charges, for a product that is not an auto-renewable subscription (nil: free).
  public var price: Decimal?

  public init(productID: Product.ID, offer: String, price: Decimal? = nil) {
    self.productID = productID
    self.offer = offer
    self.price = price
  }
}

/// Why a typed offer code was not redeemed (the redemption sheet's alert); nothing is charged.
public enum OfferCodeRefusal: Sendable, Equatable {
  /// A one-time-use code someone redeemed already.
  case alreadyRedeemed
  /// A custom code redeemed by as many customers as its limit.
  case limitReached(Int)
  /// Past its expiry date.
  case expired(Date)
  /// This customer redeemed a code of the same offer already (code `code`).
  case redeemedByCustomer(account: String, code: String)

  /// The case's name, for JSON events and `expect` lines.
  public var name: String {
    switch self {
    case .alreadyRedeemed: "alreadyRedeemed"
    case .limitReached: "limitReached"
    case .expired: "expired"
    case .redeemedByCustomer: "redeemedByCustomer"
    }
  }

  /// The StoreKit error the app hears when it asked for the redemption
  /// (`AppStore.presentOfferCodeRedeemSheet`): the offer the code names cannot be used
  /// (`invalidOfferIdentifier`), or not by this customer (`ineligibleForOffer`).
  public var storeKitError: StoreKitError {
    switch self {
    case .redeemedByCustomer: .ineligibleForOffer
    case .alreadyRedeemed, .limitReached, .expired: .invalidOfferIdentifier
    }
  }

  /// The alert, as a clause after the code.
  public var reason: String {
    switch self {
    case .alreadyRedeemed: "is a one-time code that was already redeemed"
    case .limitReached(let limit): "reached its redemption limit (\(limit))"
    case .expired(let date): "expired on \(ISO8601DateFormatter().string(from: date))"
    case .redeemedByCustomer(let account, let code):
      "is for an offer that '\(account)' already redeemed (with code \(code)); each customer redeems one code per offer"
    }
  }
}
