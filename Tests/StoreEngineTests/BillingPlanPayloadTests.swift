import Foundation
import StorefrontTestSupport
import XCTest

@testable import StoreEngine

/// `billingPlanType` in signed transactions: present (BILLED_UPFRONT, the plan a purchase gets
/// without choosing one) for subscriptions whose catalog has billing plans, absent otherwise.
final class BillingPlanPayloadTests: XCTestCase {
  typealias F = FixtureCatalog

  private func catalogWithPlans() -> Catalog {
    var catalog = F.make()
    var products = catalog.products
    if let index = products.firstIndex(where: { $0.id == F.yearly }) {
      products[index].subscription?.billingPlans = [
        BillingPlan(type: BillingPlan.upFront, price: Decimal(string: "29.99") ?? 0, commitmentPrice: Decimal(string: "29.99") ?? 0, isEnabled: true),
        BillingPlan(type: BillingPlan.monthly, price: Decimal(string: "2.99") ?? 0, commitmentPrice: Decimal(string: "35.88") ?? 0, isEnabled: true),
      ]
    }
    catalog = Catalog(products: products, subscriptionGroups: catalog.subscriptionGroups, settings: catalog.settings)
    return catalog
  }

  func testFormat6BillingPlanTypeIsSignedForSubscriptionsWithBillingPlans() throws {
    let store = try TestStore(catalog: catalogWithPlans())
    let yearly = try store.buy(F.yearly)
    XCTAssertEqual(TestStore.payload(of: yearly.signedTransaction)["billingPlanType"] as? String, "BILLED_UPFRONT")
    try store.queue.advance(by: 366 * 86_400)
    let renewal = try XCTUnwrap(try store.queue.history().last)
    XCTAssertEqual(renewal.reason, .renewal)
    XCTAssertEqual(TestStore.payload(of: renewal.signedTransaction)["billingPlanType"] as? String, "BILLED_UPFRONT")
  }

  func testFormat6BillingPlanTypeIsLeftOutWithoutBillingPlans() throws {
    let store = try TestStore(catalog: catalogWithPlans())
    let other = try TestStore()
    for transaction in [try store.buy(F.removeAds), try store.buy(F.coins), try other.buy(F.yearly)] {
      let payload = TestStore.payload(of: transaction.signedTransaction)
      XCTAssertFalse(payload.isEmpty, "\(transaction.productID)")
      XCTAssertNil(payload["billingPlanType"], "\(transaction.productID)")
    }
  }
}
