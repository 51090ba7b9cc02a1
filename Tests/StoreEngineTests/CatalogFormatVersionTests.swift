import Foundation
import XCTest

@testable import StoreEngine

/// Decoding of every format version (fixtures written by us in Tests/Fixtures) and product kind.
final class CatalogFormatVersionTests: XCTestCase {
  func testEveryFormatVersionLoadsWithItsVersion() throws {
    for (major, minor) in [(1, 0), (1, 1), (1, 2), (2, 0), (3, 0), (4, 0), (5, 0), (6, 3)] {
      let catalog = try CatalogTestFiles.loadFixture("format-\(major).\(minor).storekit")
      XCTAssertEqual(catalog.formatVersion, .init(major: major, minor: minor))
      let kinds = Set(catalog.products.map(\.kind))
      let expected: Set<ProductKind> = major == 1 && minor == 0
        ? [.consumable, .nonConsumable, .autoRenewableSubscription] : Set(ProductKind.allCases)
      XCTAssertEqual(kinds, expected, "format \(major).\(minor)")
    }
  }

  func testFormat10HasOnlyTheEarliestFields() throws {
    let catalog = try CatalogTestFiles.loadFixture("format-1.0.storekit")
    XCTAssertNil(catalog.identifier)
    XCTAssertEqual(catalog.settings, CatalogSettings())
    let monthly = try XCTUnwrap(catalog.product("fixture.v10.monthly")?.subscription)
    XCTAssertEqual(monthly.introductoryOffers, [
      SubscriptionOffer(kind: .introductory, id: "00000020", paymentMode: .freeTrial, period: .init(value: 1, unit: .week))
    ])
    XCTAssertEqual(monthly.promotionalOffers, [])
    XCTAssertEqual(monthly.codeOffers, [])
  }

  func testProductsAndLocalizationsDecode() throws {
    let catalog = try CatalogTestFiles.loadFixture("format-2.0.storekit")
    XCTAssertEqual(catalog.identifier, "F1X20000")
    XCTAssertEqual(catalog.products.map(\.id.rawValue), [
      "fixture.v20.coins", "fixture.v20.pro", "fixture.v20.season", "fixture.v20.monthly", "fixture.v20.yearly",
    ])
    let coins = try XCTUnwrap(catalog.product("fixture.v20.coins"))
    XCTAssertEqual(coins.kind, .consumable)
    XCTAssertEqual(coins.price, Decimal(string: "0.99"))
    XCTAssertEqual(coins.internalID, "00000001")
    XCTAssertEqual(coins.localizations.map(\.locale), ["en_US", "ko", "ja", "zh_Hans"])
    XCTAssertEqual(coins.localizations.first, Localization(locale: "en_US", displayName: "Coins", description: "A few coins"))
    XCTAssertEqual(catalog.product("fixture.v20.pro")?.kind, .nonConsumable)
    XCTAssertEqual(catalog.product("fixture.v20.season")?.kind, .nonRenewingSubscription)
    XCTAssertNil(catalog.product("fixture.v20.season")?.subscription)
  }

  func testSubscriptionGroupLevelsAndPeriods() throws {
    let catalog = try CatalogTestFiles.loadFixture("format-3.0.storekit")
    XCTAssertEqual(catalog.subscriptionGroups, [
      SubscriptionGroup(id: "AAAA0001", name: "Fixture Group", productIDs: ["fixture.v30.monthly", "fixture.v30.yearly"])
    ])
    let monthly = try XCTUnwrap(catalog.product("fixture.v30.monthly"))
    XCTAssertEqual(monthly.kind, .autoRenewableSubscription)
    XCTAssertEqual(monthly.subscription?.groupID, "AAAA0001")
    XCTAssertEqual(monthly.subscription?.level, 2)
    XCTAssertEqual(monthly.subscription?.period, SubscriptionPeriod(value: 1, unit: .month))
    let yearly = try XCTUnwrap(catalog.product("fixture.v30.yearly")?.subscription)
    XCTAssertEqual(yearly.level, 1)
    XCTAssertEqual(yearly.period, SubscriptionPeriod(value: 1, unit: .year))
  }

  func testEveryOfferKindDecodes() throws {
    let catalog = try CatalogTestFiles.loadFixture("format-4.0.storekit")
    let yearly = try XCTUnwrap(catalog.product("fixture.v40.yearly")?.subscription)
    XCTAssertEqual(yearly.introductoryOffers, [
      SubscriptionOffer(kind: .introductory, id: "00000021", paymentMode: .payAsYouGo, period: .init(value: 1, unit: .month), numberOfPeriods: 3, price: Decimal(string: "0.99") ?? 0)
    ])
    XCTAssertEqual(yearly.promotionalOffers, [
      SubscriptionOffer(kind: .promotional, id: "fixture.v40.yearly.promo", referenceName: "promo", paymentMode: .payUpFront, period: .init(value: 3, unit: .month), price: Decimal(string: "1.49") ?? 0)
    ])
    XCTAssertEqual(yearly.codeOffers, [
      SubscriptionOffer(kind: .code, id: "00000051", referenceName: "code", paymentMode: .payUpFront, period: .init(value: 1, unit: .year), price: Decimal(string: "9.99") ?? 0, eligibility: ["new", "expired"], isStackable: true)
    ])
    XCTAssertEqual(yearly.winBackOffers, [
      SubscriptionOffer(kind: .winBack, id: "00000061", referenceName: "winback", paymentMode: .payAsYouGo, period: .init(value: 1, unit: .month), numberOfPeriods: 2, price: Decimal(string: "0.99") ?? 0)
    ])
    XCTAssertEqual(catalog.subscriptionGroups.first?.localizations.map(\.locale), ["en_US", "ko"])
  }

  func testFormat50BillingPlansAndIntroductoryOffersArray() throws {
    let catalog = try CatalogTestFiles.loadFixture("format-5.0.storekit")
    let monthly = try XCTUnwrap(catalog.product("fixture.v50.monthly")?.subscription)
    // The same offer is written in introductoryOffer and introductoryOffers; it counts once.
    XCTAssertEqual(monthly.introductoryOffers.map(\.id), ["00000020"])
    XCTAssertEqual(monthly.introductoryOffer?.billingPlanType, "BILLED_UPFRONT")
    let yearly = try XCTUnwrap(catalog.product("fixture.v50.yearly")?.subscription)
    XCTAssertEqual(yearly.introductoryOffers.map(\.id), ["00000021"])
    XCTAssertEqual(yearly.billingPlans, [
      BillingPlan(type: "BILLED_UPFRONT", price: Decimal(string: "19.99") ?? 0, commitmentPrice: Decimal(string: "19.99") ?? 0, isEnabled: true),
      BillingPlan(type: "MONTHLY", price: Decimal(string: "1.99") ?? 0, commitmentPrice: Decimal(string: "23.88") ?? 0, isEnabled: true),
    ])
  }

  func testSettingsBlockDecodes() throws {
    let v2 = try CatalogTestFiles.loadFixture("format-2.0.storekit").settings
    XCTAssertEqual(v2.storefront, "KOR")
    XCTAssertEqual(v2.locale, "ko_KR")
    XCTAssertTrue(v2.billingGracePeriodEnabled)
    XCTAssertTrue(v2.renewalBillingIssuesEnabled)
    XCTAssertEqual(v2.storeKitErrors, [
      StoreKitErrorSetting(name: "Load Products", enabled: false), StoreKitErrorSetting(name: "Purchase", enabled: true),
    ])
    let v3 = try CatalogTestFiles.loadFixture("format-3.0.storekit").settings
    XCTAssertEqual(v3.timeRate, 13)
    XCTAssertEqual(v3.storeKitErrors.last, StoreKitErrorSetting(name: "Purchase", enabled: true, errorIndex: 4, errorType: "generic"))
    let v4 = try CatalogTestFiles.loadFixture("format-4.0.storekit").settings
    XCTAssertTrue(v4.askToBuyEnabled)
    XCTAssertTrue(v4.billingIssuesEnabled)
    XCTAssertTrue(v4.disableDialogs)
    XCTAssertFalse(v4.failTransactionsEnabled)
    XCTAssertEqual(try CatalogTestFiles.loadFixture("format-1.1.storekit").settings.timeRate, 6)
  }

  func testUnknownKeysNullIntroAndMissingOptionalsAreTolerated() throws {
    let text = """
      {
        "futureKey" : { "anything" : [1, 2, 3] },
        "products" : [ { "displayPrice" : "1", "productID" : "a", "type" : "Consumable", "newField" : true } ],
        "subscriptionGroups" : [ { "id" : "G", "name" : "G", "subscriptions" : [
          { "displayPrice" : "2.50", "groupNumber" : 1, "introductoryOffer" : null, "productID" : "s",
            "recurringSubscriptionPeriod" : "P2M", "type" : "RecurringSubscription" } ] } ],
        "version" : { "major" : 3, "minor" : 0 }
      }
      """
    let catalog = try CatalogDecoder().decode(Data(text.utf8), path: "lenient.storekit")
    XCTAssertEqual(catalog.product("a")?.referenceName, "a")
    XCTAssertEqual(catalog.product("a")?.localizations, [])
    XCTAssertEqual(catalog.product("s")?.subscription?.introductoryOffers, [])
    XCTAssertEqual(catalog.product("s")?.subscription?.period, SubscriptionPeriod(value: 2, unit: .month))
    XCTAssertEqual(catalog.product("s")?.price, Decimal(string: "2.5"))
    XCTAssertEqual(catalog.settings, CatalogSettings())
  }

  func testPricesAreExactDecimals() {
    XCTAssertEqual(CatalogWalker.parsePrice("0.99"), Decimal(99) / 100)
    XCTAssertEqual(CatalogWalker.parsePrice("1200"), 1200)
    XCTAssertEqual(CatalogWalker.parsePrice("38.00"), 38)
    for bad in ["", ".99", "1.", "1,99", "$1", "-1", "1e3", " 1", "1.2.3", "１"] {
      XCTAssertNil(CatalogWalker.parsePrice(bad), bad)
    }
  }

  func testDefaultCatalogCoversEveryKindAndLocale() throws {
    let url = CatalogTestFiles.packageRoot.appendingPathComponent("Catalog/Default.storekit")
    let catalog = try CatalogLoader.load(path: url.path)
    XCTAssertEqual(catalog.formatVersion, .init(major: 4, minor: 0))
    XCTAssertEqual(Set(catalog.products.map(\.kind)), Set(ProductKind.allCases))
    XCTAssertEqual(catalog.product("com.jake.sample.ExInAppPurchase.shopping")?.kind, .nonConsumable)
    XCTAssertEqual(catalog.product("com.jake.sample.ExInAppPurchase.shopping")?.displayName(locale: "en_US"), "Remove Ads")
    for product in catalog.products {
      XCTAssertEqual(product.localizations.map(\.locale).sorted(), ["en_US", "ja", "ko", "zh_Hans"], product.id.rawValue)
    }
    let monthly = try XCTUnwrap(catalog.product("com.jake.sample.ExInAppPurchase.premium.monthly")?.subscription)
    let yearly = try XCTUnwrap(catalog.product("com.jake.sample.ExInAppPurchase.premium.yearly")?.subscription)
    XCTAssertLessThan(yearly.level, monthly.level, "yearly is the higher service level")
    XCTAssertEqual(monthly.introductoryOffer?.paymentMode, .freeTrial)
    XCTAssertEqual(monthly.introductoryOffer?.period, SubscriptionPeriod(value: 1, unit: .week))
    XCTAssertEqual(yearly.promotionalOffers.count, 1)
    XCTAssertEqual(catalog.settings.storefront, "USA")
    XCTAssertEqual(catalog.settings.locale, "en_US")
  }
}
