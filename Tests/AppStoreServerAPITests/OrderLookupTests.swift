import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class OrderLookupTests: XCTestCase {
  func testOrderIDsRoundTripAndLookLikeApples() {
    for raw: UInt64 in [0, 1, 1_000_000_001, 1_000_000_002, 2_000_000_000_000_001, 3_656_158_440_062_975, 3_656_158_440_062_976, .max] {
      let id = PaymentTransaction.ID(raw)
      let order = OrderID.make(for: id)
      XCTAssertEqual(OrderID.transactionID(of: order), id, order)
      XCTAssertTrue(order.allSatisfy { $0.isUppercase || $0.isNumber }, order)
    }
    XCTAssertEqual(OrderID.make(for: PaymentTransaction.ID(2_000_000_000_000_001)).count, 10)
    XCTAssertNotEqual(OrderID.make(for: PaymentTransaction.ID(1)).prefix(8), OrderID.make(for: PaymentTransaction.ID(2)).prefix(8))
    XCTAssertNil(OrderID.transactionID(of: "short"))
    XCTAssertNil(OrderID.transactionID(of: "mk5tttvwjh"))
  }

  func testProductionFindsTheTransactionOfAnOrder() throws {
    let fixture = try APIFixture(environment: .production)
    let bought = try fixture.buy(FixtureCatalog.removeAds)[0]
    let response = fixture.get("/inApps/v1/lookup/\(OrderID.make(for: bought.id))")
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(json(response)["status"] as? Int, 0)
    XCTAssertEqual(json(response)["signedTransactions"] as? [String], [try fixture.jws(bought.id)])
  }

  func testAnUnknownOrderIsInvalidWithoutTransactions() throws {
    let fixture = try APIFixture(environment: .production)
    for order in ["MK5TTTVWJH", "abc", OrderID.make(for: PaymentTransaction.ID(42))] {
      let response = fixture.get("/inApps/v1/lookup/\(order)")
      XCTAssertEqual(response.status, 200)
      XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"status":1}"#)
    }
  }

  func testAnotherEnvironmentsOrderIsInvalid() throws {
    let sandbox = try APIFixture(environment: .sandbox)
    let bought = try sandbox.buy(FixtureCatalog.removeAds)[0]
    let production = AppStoreServerAPI(ledger: sandbox.store.ledger, environment: .production, bundleID: sandbox.bundleID, now: { TestStore.start })
    let response = production.handle(APIRequest(method: "GET", path: "/inApps/v1/lookup/\(OrderID.make(for: bought.id))"))
    XCTAssertEqual(json(response)["status"] as? Int, 1)
  }

  func testMalformedOrderIDsAreBadRequests() throws {
    let fixture = try APIFixture(environment: .production)
    for order in ["", "MK5-TTVWJH", String(repeating: "A", count: 65)] {
      assertAPIError(fixture.get("/inApps/v1/lookup/\(order)"), 4_000_000)
    }
  }

  func testTheSandboxHasNoOrderLookup() throws {
    let fixture = try APIFixture(environment: .sandbox)
    let bought = try fixture.buy(FixtureCatalog.removeAds)[0]
    let response = fixture.get("/inApps/v1/lookup/\(OrderID.make(for: bought.id))")
    XCTAssertEqual(response.status, 404)
    XCTAssertEqual(response.contentType, "text/plain")
  }
}
