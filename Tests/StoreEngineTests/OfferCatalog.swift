import Foundation
import StoreEngine

/// A subscription group with every kind of offer and every kind of plan change, for the fidelity
/// tests of the audit rows B24–B53.
enum OfferCatalog {
  static let group = "BASIC01"
  static let basic: Product.ID = "com.example.basic.monthly"
  /// Same level and duration as ``basic``: a crossgrade that takes effect at once.
  static let basicAlt: Product.ID = "com.example.basic.monthly.alt"
  /// Same level, another duration: a crossgrade at the next renewal.
  static let basicYearly: Product.ID = "com.example.basic.yearly"
  static let plus: Product.ID = "com.example.plus.monthly"
  static let lite: Product.ID = "com.example.lite.monthly"
  static let promo = "promo.half"
  static let code = "AB000003"
  static let winBack = "AB000004"

  static func price(_ text: String) -> Decimal { Decimal(string: text) ?? 0 }

  static func make() -> Catalog {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    let intro = SubscriptionOffer(
      kind: .introductory, id: "INTRO3", paymentMode: .payAsYouGo, period: month, numberOfPeriods: 3, price: price("1.99"))
    let promotional = SubscriptionOffer(
      kind: .promotional, id: promo, paymentMode: .payAsYouGo, period: month, numberOfPeriods: 2, price: price("4.99"))
    let codeOffer = SubscriptionOffer(
      kind: .code, id: code, referenceName: "Spring Code", paymentMode: .payUpFront, period: month, price: price("0.99"),
      eligibility: ["expired"])
    let winBackOffer = SubscriptionOffer(
      kind: .winBack, id: winBack, referenceName: "Come Back", paymentMode: .payUpFront, period: month, price: price("1.99"))
    func subscription(_ id: Product.ID, level: Int, period: SubscriptionPeriod, price text: String, offers: Bool = false) -> Product {
      Product(
        id: id, kind: .autoRenewableSubscription, referenceName: id.rawValue, price: price(text),
        subscription: SubscriptionInfo(
          groupID: group, level: level, period: period, introductoryOffers: offers ? [intro] : [],
          promotionalOffers: offers ? [promotional] : [], codeOffers: offers ? [codeOffer] : [],
          winBackOffers: offers ? [winBackOffer] : []))
    }
    return Catalog(
      products: [
        subscription(basic, level: 3, period: month, price: "9.99", offers: true),
        subscription(basicAlt, level: 3, period: month, price: "10.99"),
        subscription(basicYearly, level: 3, period: SubscriptionPeriod(value: 1, unit: .year), price: "99.99"),
        subscription(plus, level: 1, period: month, price: "19.99"),
        subscription(lite, level: 5, period: month, price: "4.99"),
      ],
      subscriptionGroups: [SubscriptionGroup(id: group, name: "Basic", productIDs: [basic, basicAlt, basicYearly, plus, lite])])
  }
}
