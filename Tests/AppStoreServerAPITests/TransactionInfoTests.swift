import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class TransactionInfoTests: XCTestCase {
  func testReturnsTheStoredJWSByteForByte() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.removeAds)[0]
    let response = fixture.get("/inApps/v1/transactions/\(bought.id)")
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(response.contentType, "application/json")
    XCTAssertEqual(json(response) as? [String: String], ["signedTransactionInfo": try fixture.jws(bought.id)])
  }

  func testAPurchaseCommittedAfterTheAPIWasMadeIsVisibleAtOnce() throws {
    let fixture = try APIFixture()
    let path = "/inApps/v1/transactions/\(TestStore.environment.firstTransactionID)"
    assertAPIError(fixture.get(path), 4_040_010)
    try fixture.buy(FixtureCatalog.coins)
    XCTAssertEqual(fixture.get(path).status, 200)
  }

  func testMalformedIDsAreInvalid() throws {
    let fixture = try APIFixture()
    for id in ["abc", "-1", String(repeating: "9", count: 40), "", "+5", "1.0", "18446744073709551616", "%20"] {
      assertAPIError(fixture.get("/inApps/v1/transactions/\(id)"), 4_000_006)
    }
  }

  func testUnknownAndUnsignedIDsAreNotFound() throws {
    let fixture = try APIFixture()
    try fixture.store.queue.set(.dialogs(true))
    let pending = try fixture.store.queue.add(Payment(productID: FixtureCatalog.coins))
    assertAPIError(fixture.get("/inApps/v1/transactions/\(pending)"), 4_040_010)
    assertAPIError(fixture.get("/inApps/v1/transactions/0"), 4_040_010)
    assertAPIError(fixture.get("/inApps/v1/transactions/999999999999"), 4_040_010)
  }

  func testTheOtherEnvironmentsTransactionsAreNotFound() throws {
    let sandbox = try APIFixture(environment: .sandbox)
    let production = AppStoreServerAPI(
      ledger: sandbox.store.ledger, environment: .production, bundleID: sandbox.bundleID, now: { TestStore.start })
    let bought = try sandbox.buy(FixtureCatalog.removeAds)[0]
    XCTAssertEqual(sandbox.get("/inApps/v1/transactions/\(bought.id)").status, 200)
    assertAPIError(production.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(bought.id)")), 4_040_010)
    assertAPIError(production.handle(APIRequest(method: "GET", path: "/inApps/v2/history/\(bought.id)")), 4_040_010)
  }

  func testAnotherAppsTransactionsAreNotFound() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.removeAds)[0]
    let other = AppStoreServerAPI(ledger: fixture.store.ledger, environment: .sandbox, bundleID: "com.other.app", now: { TestStore.start })
    assertAPIError(other.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(bought.id)")), 4_040_010)
  }

  func testAnAppTransactionIDIsNotSupported() throws {
    let fixture = try APIFixture()
    try fixture.buy(FixtureCatalog.removeAds)
    let appTransactionID = SignedPayloads.appTransactionID(account: "tester", bundleID: fixture.bundleID)
    assertAPIError(fixture.get("/inApps/v1/transactions/\(appTransactionID)"), 4_000_048)
  }

  func testARedownloadIsNotATransactionOfItsOwn() throws {
    let fixture = try APIFixture()
    let first = try fixture.buy(FixtureCatalog.removeAds)[0]
    let again = try fixture.buy(FixtureCatalog.removeAds)[0]
    XCTAssertNotEqual(first.id, again.id)
    assertAPIError(fixture.get("/inApps/v1/transactions/\(again.id)"), 4_040_010)
    XCTAssertEqual(transactionIDs(fixture.get("/inApps/v2/history/\(first.id)")), [first.id.description])
  }
}
