import Foundation
internal import StoreEngine

/// A subscription period: a number of units. `SKProductSubscriptionPeriod()` is one day, for a test double.
open class SKProductSubscriptionPeriod: NSObject, @unchecked Sendable {
  // Set once, by the initializer.
  private var storedNumberOfUnits = 1
  private var storedUnit = SKProduct.PeriodUnit.day

  /// One day (Apple's inherited `NSObject` initializer), for a subclass to override.
  public override init() {
    super.init()
  }

  init(_ period: StoreEngine.SubscriptionPeriod) {
    storedNumberOfUnits = period.value
    storedUnit =
      switch period.unit {
      case .day: .day
      case .week: .week
      case .month: .month
      case .year: .year
      }
    super.init()
  }

  open var numberOfUnits: Int { storedNumberOfUnits }
  open var unit: SKProduct.PeriodUnit { storedUnit }
}

/// An introductory or promotional offer of a subscription. `SKProductDiscount()` is a free day of
/// an introductory offer, for a test double to override.
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

  // Set once, by the initializer.
  private var storedPrice = NSDecimalNumber.zero
  private var storedPriceLocale = Locale(identifier: "en_US@currency=USD")
  private var storedIdentifier: String?
  private var storedPeriod = SKProductSubscriptionPeriod()
  private var storedNumberOfPeriods = 1
  private var storedPaymentMode = PaymentMode.freeTrial
  private var storedType = `Type`.introductory

  /// An empty offer (Apple's inherited `NSObject` initializer), for a subclass to override.
  public override init() {
    super.init()
  }

  init(_ offer: SubscriptionOffer, type: `Type`, currency: String, priceLocale: Locale) {
    storedPrice = NSDecimalNumber(decimal: Money.rounded(offer.price, currencyCode: currency))
    storedPriceLocale = priceLocale
    storedIdentifier = type == .introductory ? nil : offer.id
    storedPeriod = SKProductSubscriptionPeriod(offer.period)
    storedNumberOfPeriods = offer.numberOfPeriods
    storedPaymentMode =
      switch offer.paymentMode {
      case .payAsYouGo: .payAsYouGo
      case .payUpFront, .oneTime: .payUpFront
      case .freeTrial: .freeTrial
      }
    storedType = type
    super.init()
  }

  /// Per period (pay as you go) or for the whole offer (pay up front); zero for a free trial.
  open var price: NSDecimalNumber { storedPrice }
  open var priceLocale: Locale { storedPriceLocale }
  /// The promotional offer's identifier; nil for the introductory offer.
  open var identifier: String? { storedIdentifier }
  open var subscriptionPeriod: SKProductSubscriptionPeriod { storedPeriod }
  open var numberOfPeriods: Int { storedNumberOfPeriods }
  open var paymentMode: PaymentMode { storedPaymentMode }
  open var type: `Type` { storedType }
}
