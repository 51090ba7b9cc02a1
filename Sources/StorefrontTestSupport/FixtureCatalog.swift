import Foundation
import StoreEngine

/// A small catalog built in code, covering every product kind, for engine tests.
public enum FixtureCatalog {
  public static let removeAds: Product.ID = "com.jake.sample.ExInAppPurchase.shopping"
  public static let coins: Product.ID = "com.example.coins100"
  public static let seasonPass: Product.ID = "com.example.seasonpass"
  public static let monthly: Product.ID = "com.example.premium.monthly"
  public static let yearly: Product.ID = "com.example.premium.yearly"
  public static let group = "PREMIUM01"

  public static func make(settings: CatalogSettings = CatalogSettings()) -> Catalog {
    let trial = SubscriptionOffer(
      kind: .introductory, id: "TRIAL1W", paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week))
    let promo = SubscriptionOffer(
      kind: .promotional, id: "winback50", paymentMode: .payUpFront, period: SubscriptionPeriod(value: 3, unit: .month),
      price: Decimal(string: "4.99") ?? 0)
    return Catalog(
      products: [
        Product(id: removeAds, kind: .nonConsumable, referenceName: "Remove Ads", price: Decimal(string: "1.99") ?? 0,
                familyShareable: true,
                localizations: [Localization(locale: "en_US", displayName: "Remove Ads"), Localization(locale: "ko", displayName: "광고 제거")]),
        Product(id: coins, kind: .consumable, referenceName: "100 Coins", price: Decimal(string: "0.99") ?? 0,
                localizations: [Localization(locale: "en_US", displayName: "100 Coins")]),
        Product(id: seasonPass, kind: .nonRenewingSubscription, referenceName: "Season Pass", price: Decimal(string: "9.99") ?? 0),
        Product(id: monthly, kind: .autoRenewableSubscription, referenceName: "Premium Monthly", price: Decimal(string: "2.99") ?? 0,
                subscription: SubscriptionInfo(groupID: group, level: 2, period: SubscriptionPeriod(value: 1, unit: .month),
                                               introductoryOffers: [trial], promotionalOffers: [promo])),
        Product(id: yearly, kind: .autoRenewableSubscription, referenceName: "Premium Yearly", price: Decimal(string: "29.99") ?? 0,
                subscription: SubscriptionInfo(groupID: group, level: 1, period: SubscriptionPeriod(value: 1, unit: .year))),
      ],
      subscriptionGroups: [SubscriptionGroup(id: group, name: "Premium", productIDs: [monthly, yearly])],
      settings: settings)
  }

  /// The yearly subscription's billing plans in ``withBillingPlans(settings:)``: 29.99 up front, or
  /// 2.99 a month with a 12-month commitment of 35.88.
  public static let monthlyPlanPrice = Decimal(string: "2.99") ?? 0
  public static let commitmentPrice = Decimal(string: "35.88") ?? 0

  /// ``make(settings:)`` with the yearly subscription sold on two billing plans (format 5.0+):
  /// billed up front, or monthly with a 12-month commitment.
  public static func withBillingPlans(settings: CatalogSettings = CatalogSettings()) -> Catalog {
    let full = make(settings: settings)
    var products = full.products
    if let index = products.firstIndex(where: { $0.id == yearly }) {
      products[index].subscription?.billingPlans = [
        BillingPlan(type: BillingPlan.upFront, price: Decimal(string: "29.99") ?? 0, commitmentPrice: Decimal(string: "29.99") ?? 0, isEnabled: true),
        BillingPlan(type: BillingPlan.monthly, price: monthlyPlanPrice, commitmentPrice: commitmentPrice, isEnabled: true),
      ]
    }
    return Catalog(formatVersion: full.formatVersion, products: products, subscriptionGroups: full.subscriptionGroups, settings: settings)
  }
}

extension FixtureCatalog {
  /// A format-6.3 bundle subscription (group `BUNDLE01`) that includes ``monthly`` (DECISIONS §47).
  public static let bundle: Product.ID = "com.example.premium.bundle"
  public static let bundleGroup = "BUNDLE01"

  /// `catalog` (the fixture catalog by default) with the ``bundle`` group added.
  public static func withBundle(_ catalog: Catalog = make()) -> Catalog {
    let info = SubscriptionInfo(
      groupID: bundleGroup, level: 1, period: SubscriptionPeriod(value: 1, unit: .month),
      bundledSubscriptions: [BundledSubscription(productID: monthly, groupID: group)])
    let product = Product(
      id: bundle, kind: .autoRenewableSubscription, referenceName: "Premium Bundle", price: Decimal(string: "4.99") ?? 0, subscription: info)
    return Catalog(
      formatVersion: .init(major: 6, minor: 3), identifier: catalog.identifier, products: catalog.products + [product],
      subscriptionGroups: catalog.subscriptionGroups + [SubscriptionGroup(id: bundleGroup, name: "Bundle", productIDs: [bundle], kind: .bundle)],
      settings: catalog.settings)
  }
}
