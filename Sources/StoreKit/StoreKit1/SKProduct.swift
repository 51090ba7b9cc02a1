import Foundation
internal import StoreEngine

/// A product from the App Store, as a products request returns it: localized from the catalog's
/// locale, priced in the storefront's currency.
open class SKProduct: NSObject, @unchecked Sendable {
  /// How long a subscription period's unit is.
  public enum PeriodUnit: UInt, Sendable, Hashable {
    case day = 0
    case week = 1
    case month = 2
    case year = 3
  }

  public let productIdentifier: String
  public let localizedTitle: String
  public let localizedDescription: String
  /// The price in the storefront's currency, rounded to its minor units (₩1 for a `0.99` catalog price).
  public let price: NSDecimalNumber
  /// The locale to format ``price`` with: the session's locale and the storefront's currency.
  public let priceLocale: Locale
  public let isFamilyShareable: Bool
  /// Hosted content is not simulated.
  public let isDownloadable = false
  public let downloadContentLengths: [NSNumber] = []
  public let contentVersion = ""
  public let downloadContentVersion = ""
  /// The period of an auto-renewable subscription.
  public let subscriptionPeriod: SKProductSubscriptionPeriod?
  /// The introductory offer of an auto-renewable subscription.
  public let introductoryPrice: SKProductDiscount?
  /// The subscription's group.
  public let subscriptionGroupIdentifier: String?
  /// The promotional offers of an auto-renewable subscription.
  public let discounts: [SKProductDiscount]

  init(_ product: StoreEngine.Product, locale: String, storefront: String) {
    let currency = StoreEngine.Storefront.lookup(storefront)?.currencyCode ?? "USD"
    let priceLocale = Locale(identifier: "\(locale)@currency=\(currency)")
    productIdentifier = product.id.rawValue
    localizedTitle = product.displayName(locale: locale)
    localizedDescription = product.displayDescription(locale: locale)
    price = NSDecimalNumber(decimal: Money.rounded(product.price, currencyCode: currency))
    self.priceLocale = priceLocale
    isFamilyShareable = product.familyShareable
    subscriptionPeriod = product.subscription.map { SKProductSubscriptionPeriod($0.period) }
    introductoryPrice = product.subscription?.introductoryOffer.map {
      SKProductDiscount($0, type: .introductory, currency: currency, priceLocale: priceLocale)
    }
    subscriptionGroupIdentifier = product.subscription?.groupID
    discounts = (product.subscription?.promotionalOffers ?? []).map {
      SKProductDiscount($0, type: .subscription, currency: currency, priceLocale: priceLocale)
    }
    super.init()
  }
}

/// A subscription period: a number of units.
open class SKProductSubscriptionPeriod: NSObject, @unchecked Sendable {
  public let numberOfUnits: Int
  public let unit: SKProduct.PeriodUnit

  init(_ period: StoreEngine.SubscriptionPeriod) {
    numberOfUnits = period.value
    unit =
      switch period.unit {
      case .day: .day
      case .week: .week
      case .month: .month
      case .year: .year
      }
    super.init()
  }
}

/// An introductory or promotional offer of a subscription.
open class SKProductDiscount: NSObject, @unchecked Sendable {
  public enum PaymentMode: UInt, Sendable, Hashable {
    case payAsYouGo = 0
    case payUpFront = 1
    case freeTrial = 2
  }

  public enum `Type`: UInt, Sendable, Hashable {
    case introductory = 0
    case subscription = 1
  }

  /// Per period (pay as you go) or for the whole offer (pay up front); zero for a free trial.
  public let price: NSDecimalNumber
  public let priceLocale: Locale
  /// The promotional offer's identifier; nil for the introductory offer.
  public let identifier: String?
  public let subscriptionPeriod: SKProductSubscriptionPeriod
  public let numberOfPeriods: Int
  public let paymentMode: PaymentMode
  public let type: `Type`

  init(_ offer: SubscriptionOffer, type: `Type`, currency: String, priceLocale: Locale) {
    price = NSDecimalNumber(decimal: Money.rounded(offer.price, currencyCode: currency))
    self.priceLocale = priceLocale
    identifier = type == .introductory ? nil : offer.id
    subscriptionPeriod = SKProductSubscriptionPeriod(offer.period)
    numberOfPeriods = offer.numberOfPeriods
    paymentMode =
      switch offer.paymentMode {
      case .payAsYouGo: .payAsYouGo
      case .payUpFront: .payUpFront
      case .freeTrial: .freeTrial
      }
    self.type = type
    super.init()
  }
}
