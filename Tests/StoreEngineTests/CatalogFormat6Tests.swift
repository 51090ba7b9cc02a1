import Foundation
import XCTest

@testable import StoreEngine

/// Format 6.x (Xcode 27): bundle and suite groups, billing plans on the product model, and
/// versions newer than the decoder knows.
final class CatalogFormat6Tests: XCTestCase {
  private func decode(_ text: String) throws -> Catalog {
    try CatalogDecoder().decode(Data(text.utf8), path: "test.storekit")
  }

  /// The 6.3 fixture with its version replaced.
  private func fixture(version: (Int, Int)) throws -> String {
    let text = try String(contentsOf: CatalogTestFiles.fixture("format-6.3.storekit"), encoding: .utf8)
    return text.replacingOccurrences(of: "\"major\" : 6,\n    \"minor\" : 3", with: "\"major\" : \(version.0),\n    \"minor\" : \(version.1)")
  }

  func testFormat6FixtureLoadsEveryGroupKind() throws {
    let catalog = try CatalogTestFiles.loadFixture("format-6.3.storekit")
    XCTAssertEqual(catalog.formatVersion, .init(major: 6, minor: 3))
    XCTAssertEqual(catalog.warnings, [])
    XCTAssertEqual(Set(catalog.products.map(\.kind)), Set(ProductKind.allCases))
    XCTAssertEqual(catalog.subscriptionGroups.map(\.id), ["AAAA0061", "AAAA0062", "BBBB0061", "CCCC0061"])
    XCTAssertEqual(catalog.subscriptionGroups.map(\.kind), [.regular, .regular, .bundle, .suite])
    XCTAssertEqual(catalog.group("BBBB0061")?.productIDs, ["fixture.v63.bundle.monthly"])
  }

  func testFormat6BundleIncludesSubscriptionsOfTheCatalog() throws {
    let catalog = try CatalogTestFiles.loadFixture("format-6.3.storekit")
    let bundle = try XCTUnwrap(catalog.product("fixture.v63.bundle.monthly"))
    // Sold as one auto-renewable subscription of its bundle group.
    XCTAssertEqual(bundle.kind, .autoRenewableSubscription)
    XCTAssertEqual(bundle.subscription?.groupID, "BBBB0061")
    XCTAssertEqual(bundle.subscription?.bundledSubscriptions, [
      BundledSubscription(productID: "fixture.v63.photo.monthly", groupID: "AAAA0061"),
      BundledSubscription(productID: "fixture.v63.video.monthly", groupID: "AAAA0062"),
    ])
    XCTAssertEqual(catalog.product("fixture.v63.photo.monthly")?.subscription?.bundledSubscriptions, [])
  }

  func testFormat6SuiteDescribesSubscriptionsSoldOnlyInIt() throws {
    let catalog = try CatalogTestFiles.loadFixture("format-6.3.storekit")
    let suite = try XCTUnwrap(catalog.product("fixture.v63.suite.yearly")?.subscription)
    XCTAssertEqual(suite.bundledSubscriptions.map(\.productID), ["fixture.v63.suite.editor", "fixture.v63.suite.cloud"])
    XCTAssertEqual(suite.bundledSubscriptions.first?.referenceName, "suite editor")
    XCTAssertEqual(suite.bundledSubscriptions.first?.localizations.first?.displayName, "Studio Editor")
    // Not products of their own: a suite's subscriptions cannot be bought alone.
    XCTAssertNil(catalog.product("fixture.v63.suite.editor"))
  }

  func testFormat6BillingPlansOnTheProductModel() throws {
    let catalog = try CatalogTestFiles.loadFixture("format-6.3.storekit")
    let yearly = try XCTUnwrap(catalog.product("fixture.v63.photo.yearly")?.subscription)
    XCTAssertEqual(yearly.billingPlans, [
      BillingPlan(type: "BILLED_UPFRONT", price: Decimal(string: "39.99") ?? 0, commitmentPrice: Decimal(string: "39.99") ?? 0, isEnabled: true),
      BillingPlan(type: "MONTHLY", price: Decimal(string: "3.99") ?? 0, commitmentPrice: Decimal(string: "47.88") ?? 0, isEnabled: true),
    ])
    XCTAssertEqual(yearly.billingPlanTypes, ["BILLED_UPFRONT", "MONTHLY"])
    XCTAssertEqual(yearly.defaultBillingPlanType, "BILLED_UPFRONT")
    XCTAssertEqual(yearly.promotionalOffers.first?.billingPlanType, "MONTHLY")
    XCTAssertEqual(yearly.codeOffers.first?.billingPlanType, "BILLED_UPFRONT")
    XCTAssertEqual(catalog.product("fixture.v63.video.monthly")?.subscription?.billingPlanTypes, ["BILLED_UPFRONT"])
    // A catalog without billing plans has none, and no default.
    let old = try XCTUnwrap(try CatalogTestFiles.loadFixture("format-4.0.storekit").product("fixture.v40.yearly")?.subscription)
    XCTAssertEqual(old.billingPlanTypes, [])
    XCTAssertNil(old.defaultBillingPlanType)
  }

  func testFormat6BillingPlanTypeOfOffersAloneCountsAsAPlan() throws {
    let catalog = try decode("""
      {"version": {"major": 6, "minor": 3}, "subscriptionGroups": [{"id": "G", "name": "G", "subscriptions": [
        {"productID": "y", "type": "RecurringSubscription", "displayPrice": "9.99", "groupNumber": 1, "recurringSubscriptionPeriod": "P1Y",
         "adHocOffers": [{"offerID": "m", "paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "numberOfPeriods": 3, "displayPrice": "0.99", "billingPlanType": "MONTHLY"}]}]}]}
      """)
    XCTAssertEqual(catalog.product("y")?.subscription?.billingPlanTypes, ["MONTHLY"])
    XCTAssertEqual(catalog.product("y")?.subscription?.defaultBillingPlanType, "BILLED_UPFRONT")
  }

  func testFormat6UnknownMinorVersionsLoadWithAWarningNamingFileAndVersion() throws {
    for minor in [4, 9] {
      let catalog = try decode(try fixture(version: (6, minor)))
      XCTAssertEqual(catalog.formatVersion, .init(major: 6, minor: minor))
      XCTAssertEqual(catalog.products.count, 8)
      let warning = try XCTUnwrap(catalog.warnings.first)
      XCTAssertEqual(catalog.warnings.count, 1)
      XCTAssertEqual(warning.severity, .warning)
      XCTAssertEqual(warning.path, "test.storekit")
      XCTAssertEqual(warning.located, "test.storekit:\(warning.line):15: warning: version: format version 6.\(minor) is newer than this storefront knows (6.3); read as 6.3, keys it does not know are ignored")
      XCTAssertFalse(warning.hint.isEmpty)
    }
    // Known versions, old or new, load silently.
    for version in [(5, 0), (6, 0), (6, 3)] {
      XCTAssertEqual(try decode(try fixture(version: version)).warnings, [], "\(version)")
    }
  }

  func testFormat6UnknownMajorVersionIsRefusedWithAClearMessage() throws {
    let issues = CatalogTestFiles.issues(try fixture(version: (7, 0)))
    XCTAssertEqual(issues.map(\.message), ["version: format version 7.0 is not supported; this storefront reads formats 1.0 through 6.x"])
    XCTAssertEqual(issues.first?.severity, .error)
    XCTAssertEqual(issues.first?.hint.contains("format 6.3 or older"), true)
    XCTAssertEqual(CatalogTestFiles.issues(try fixture(version: (0, 9))).count, 1)
  }

  func testFormat6BundleOfAnUnknownProductIsALocatedError() throws {
    let text = try fixture(version: (6, 3)).replacingOccurrences(
      of: "\"productID\" : \"fixture.v63.video.monthly\",\n              \"subscriptionGroupID\"",
      with: "\"productID\" : \"fixture.v63.video.montly\",\n              \"subscriptionGroupID\"")
    let issues = CatalogTestFiles.issues(text)
    XCTAssertEqual(issues.map(\.message), ["subscriptionBundleGroups[0].subscriptions[0].bundledSubscriptions[1].productID: bundled subscription 'fixture.v63.video.montly' is not a subscription of this catalog"])
    XCTAssertEqual(issues.first?.hint.hasPrefix("did you mean 'fixture.v63.video.monthly'?"), true)
  }

  func testFormat6BundleMustListWhatItIncludes() throws {
    let issues = CatalogTestFiles.issues("""
      {"version": {"major": 6, "minor": 3}, "subscriptionBundleGroups": [{"id": "B", "name": "B", "subscriptions": [
        {"productID": "b", "type": "SubscriptionBundle", "displayPrice": "9.99", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M"}]}]}
      """)
    XCTAssertEqual(issues.map(\.message), ["subscriptionBundleGroups[0].subscriptions[0]: missing required field 'bundledSubscriptions': a bundle subscription includes other subscriptions"])
  }

  func testFormat6SharedFiveZeroSampleStillLoadsWithItsBillingPlans() throws {
    let url = CatalogTestFiles.sharedSamples.appendingPathComponent("revenuecat_v5.0_billingplans_introductoryOffers-array_winback_nonrenewing.storekit")
    try XCTSkipUnless(FileManager.default.fileExists(atPath: url.path), "shared samples not present")
    let catalog = try CatalogLoader.load(path: url.path)
    XCTAssertEqual(catalog.product("com.revenuecat.annual_with_commitment")?.subscription?.billingPlanTypes, ["BILLED_UPFRONT", "MONTHLY"])
    XCTAssertEqual(catalog.warnings, [])
  }
}
