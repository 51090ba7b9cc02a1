import Foundation
internal import StoreEngine

/// A product from the App Store, as a products request returns it: localized from the catalog's
/// locale, priced in the storefront's currency.
///
/// As Swift imports Apple's class: `open`, with `init()` and `open var` properties, so a test double
/// subclasses it (`super.init()`) and overrides what it needs (`override var price: NSDecimalNumber`).
/// A product made with `init()` is empty (no identifier, a zero price).
open class SKProduct: NSObject, @unchecked Sendable {
  /// How long a subscription period's unit is.
  public enum PeriodUnit: UInt, Sendable, Hashable {
    case day = 0
    case week = 1
    case month = 2
    case year = 3
  }

  // Set once, by the initializer that made the product.
  private var storedIdentifier = ""
  private var storedTitle = ""
  private var storedDescription = ""
  private var storedPrice = NSDecimalNumber.zero
  private var storedPriceLocale = Locale(identifier: "en_US@currency=USD")
  private var storedFamilyShareable = false
  private var storedPeriod: SKProductSubscriptionPeriod?
  private var storedIntroductoryPrice: SKProductDiscount?
  private var storedGroupIdentifier: String?
  private var storedDiscounts: [SKProductDiscount] = []

  /// An empty product (Apple's inherited `NSObject` initializer), for a subclass to fill.
  public override init() {
    super.init()
  }

  init(_ product: StoreEngine.Product, locale: String, storefront: String) {
    let currency = StoreEngine.Storefront.lookup(storefront)?.currencyCode ?? "USD"
    let priceLocale = Locale(identifier: "\(locale)@currency=\(currency)")
    storedIdentifier = product.id.rawValue
    storedTitle = product.displayName(locale: locale)
    storedDescription = product.displayDescription(locale: locale)
    storedPrice = NSDecimalNumber(decimal: Money.rounded(product.price, currencyCode: currency))
    storedPriceLocale = priceLocale
    storedFamilyShareable = product.familyShareable
    storedPeriod = product.subscription.map { SKProductSubscriptionPeriod($0.period) }
    storedIntroductoryPrice = product.subscription?.introductoryOffer.map {
      SKProductDiscount($0, type: .introductory, currency: currency, priceLocale: priceLocale)
    }
    storedGroupIdentifier = product.subscription?.groupID
    storedDiscounts = (product.subscription?.promotionalOffers ?? []).map {
      SKProductDiscount($0, type: .subscription, currency: currency, priceLocale: priceLocale)
    }
    super.init()
  }

  open var productIdentifier: String { storedIdentifier }
  open var localizedTitle: String { storedTitle }
  open var localizedDescription: String { storedDescription }
  /// The price in the storefront's currency, rounded to its minor units (₩1 for a `0.99` catalog price).
  open var price: NSDecimalNumber { storedPrice }
  /// The locale to format ``price`` with: the session's locale and the storefront's currency.
  open var priceLocale: Locale { storedPriceLocale }
  open var isFamilyShareable: Bool { storedFamilyShareable }
  /// False: `.storekit` files have no hosted content.
  @available(*, deprecated, message: "Hosted content is no longer supported")
  open var isDownloadable: Bool { false }
  /// Empty: no hosted content.
  @available(*, deprecated, message: "Hosted content is no longer supported")
  open var downloadContentLengths: [NSNumber] { [] }
  /// Empty: no hosted content (Apple deprecates it on macOS only).
  open var contentVersion: String { "" }
  /// Empty: no hosted content.
  @available(*, deprecated, message: "Hosted content is no longer supported")
  open var downloadContentVersion: String { "" }
  /// The period of an auto-renewable subscription.
  open var subscriptionPeriod: SKProductSubscriptionPeriod? { storedPeriod }
  /// The introductory offer of an auto-renewable subscription.
  open var introductoryPrice: SKProductDiscount? { storedIntroductoryPrice }
  /// The subscription's group.
  open var subscriptionGroupIdentifier: String? { storedGroupIdentifier }
  /// The promotional offers of an auto-renewable subscription.
  open var discounts: [SKProductDiscount] { storedDiscounts }
}
