import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class SubscriptionStatusTests: XCTestCase {
  private func lastTransactions(_ response: APIResponse) -> [[String: Any]] {
    (json(response)["data"] as? [[String: Any]] ?? []).flatMap { $0["lastTransactions"] as? [[String: Any]] ?? [] }
  }

  func testAnActiveSubscriptionWithItsLatestTransactionAndRenewalInfo() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.monthly)[0]
    try fixture.store.queue.forceRenewal(bought.id)
    let response = fixture.get("/inApps/v1/subscriptions/\(bought.id)")
    XCTAssertEqual(response.status, 200)
    let object = json(response)
    XCTAssertEqual(object["environment"] as? String, "Sandbox")
    XCTAssertEqual(object["bundleId"] as? String, fixture.bundleID)
    let groups = object["data"] as? [[String: Any]] ?? []
    XCTAssertEqual(groups.map { $0["subscriptionGroupIdentifier"] as? String }, [FixtureCatalog.group])
    let items = lastTransactions(response)
    XCTAssertEqual(items.count, 1)
    let record = try XCTUnwrap(fixture.store.ledger.everything.subscriptions.first)
    let latest = try XCTUnwrap(fixture.store.ledger.history(account: "tester").last)
    XCTAssertNotEqual(latest.id, bought.id)
    XCTAssertEqual(items.first?["status"] as? Int, 1)
    XCTAssertEqual(items.first?["originalTransactionId"] as? String, bought.id.description)
    XCTAssertEqual(items.first?["signedTransactionInfo"] as? String, latest.signedTransaction)
    XCTAssertEqual(items.first?["signedRenewalInfo"] as? String, try XCTUnwrap(record.signedRenewalInfo))
  }

  func testTheStatusFilter() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.monthly)[0]
    let path = "/inApps/v1/subscriptions/\(bought.id)"
    XCTAssertEqual(lastTransactions(fixture.get(path, [("status", "1")])).count, 1)
    XCTAssertEqual(lastTransactions(fixture.get(path, [("status", "2"), ("status", "5")])).count, 0)
    XCTAssertEqual((json(fixture.get(path, [("status", "2")]))["data"] as? [Any])?.count, 0)
    try fixture.store.queue.expireSubscription(bought.id)
    XCTAssertEqual(lastTransactions(fixture.get(path, [("status", "2"), ("status", "1")])).first?["status"] as? Int, 2)
  }

  func testARefundedSubscriptionIsRevoked() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.monthly)[0]
    try fixture.store.queue.refund(bought.id)
    let items = lastTransactions(fixture.get("/inApps/v1/subscriptions/\(bought.id)"))
    XCTAssertEqual(items.first?["status"] as? Int, 5)
    XCTAssertNotNil(TestStore.payload(of: items.first?["signedTransactionInfo"] as? String)["revocationDate"])
  }

  func testACustomerWithoutSubscriptionsHasNoData() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    let response = fixture.get("/inApps/v1/subscriptions/\(bought.id)")
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual((json(response)["data"] as? [Any])?.count, 0)
  }

  func testErrors() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.monthly)[0]
    for status in ["0", "6", "x", "", "+1"] {
      assertAPIError(fixture.get("/inApps/v1/subscriptions/\(bought.id)", [("status", status)]), 4_000_031)
    }
    assertAPIError(fixture.get("/inApps/v1/subscriptions/-4"), 4_000_006)
    assertAPIError(fixture.get("/inApps/v1/subscriptions/77"), 4_040_010)
  }
}
