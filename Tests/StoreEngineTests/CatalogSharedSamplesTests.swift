import Foundation
import XCTest

@testable import StoreEngine

/// Every real `.storekit` file in `../shared/storekit-samples` must load (skipped when absent).
final class CatalogSharedSamplesTests: XCTestCase {
  func testEverySharedSampleLoads() throws {
    let folder = CatalogTestFiles.sharedSamples
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?
      .filter { $0.hasSuffix(".storekit") }.sorted() ?? []
    try XCTSkipIf(names.isEmpty, "no shared samples at \(folder.path)")
    XCTAssertEqual(names.count, 9)
    for name in names {
      let path = folder.appendingPathComponent(name).path
      do {
        let catalog = try CatalogLoader.load(path: path)
        XCTAssertFalse(catalog.products.isEmpty, name)
      } catch {
        XCTFail("\(name):\n\(error)")
      }
    }
  }

  func testSampleContentsDecodeFaithfully() throws {
    let folder = CatalogTestFiles.sharedSamples
    let birds = folder.appendingPathComponent("apple-backyard-birds_v3.0_consumables_subscription-levels_storekiterrors.storekit")
    try XCTSkipUnless(FileManager.default.fileExists(atPath: birds.path))
    let catalog = try CatalogLoader.load(path: birds.path)
    XCTAssertEqual(catalog.formatVersion, .init(major: 3, minor: 0))
    XCTAssertEqual(catalog.products.filter { $0.kind == .consumable }.count, 6)
    XCTAssertEqual(catalog.settings.storeKitErrors.count, 9)
    XCTAssertEqual(catalog.settings.storeKitErrors.first?.name, "Load Products")
    let levels = catalog.products.compactMap(\.subscription).map(\.level).sorted()
    XCTAssertEqual(levels, [1, 2, 3])

    let v5 = folder.appendingPathComponent("revenuecat_v5.0_billingplans_introductoryOffers-array_winback_nonrenewing.storekit")
    let five = try CatalogLoader.load(path: v5.path)
    let monthly = try XCTUnwrap(five.product("com.revenuecat.monthly_4.99.1_week_intro"))
    // introductoryOffer and introductoryOffers hold the same offer; it is kept once.
    XCTAssertEqual(monthly.subscription?.introductoryOffers.count, 1)
    XCTAssertEqual(monthly.subscription?.promotionalOffers.map(\.id), [
      "com.revenuecat.monthly_4.99.1_week_intro.year_discount",
      "com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go",
    ])
    let commitment = try XCTUnwrap(five.product("com.revenuecat.annual_with_commitment"))
    XCTAssertEqual(commitment.subscription?.billingPlans.map(\.type), ["BILLED_UPFRONT", "MONTHLY"])
    XCTAssertEqual(commitment.subscription?.billingPlans.last?.commitmentPrice, Decimal(string: "6.00"))
  }
}
