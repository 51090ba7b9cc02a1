import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class AppTransactionInfoTests: XCTestCase {
  func testSignsTheCustomersAppTransaction() throws {
    let fixture = try APIFixture(environment: .production, appAppleID: 1_234_567_890, signer: UnsignedTestSigner(environment: "Production"))
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    let appTransactionID = SignedPayloads.appTransactionID(account: "tester", bundleID: fixture.bundleID)
    for id in [bought.id.description, appTransactionID] {
      let response = fixture.get("/inApps/v1/transactions/appTransactions/\(id)")
      XCTAssertEqual(response.status, 200)
      let payload = TestStore.payload(of: json(response)["signedAppTransactionInfo"] as? String)
      XCTAssertEqual(payload["appTransactionId"] as? String, appTransactionID)
      XCTAssertEqual(payload["bundleId"] as? String, fixture.bundleID)
      XCTAssertEqual(payload["receiptType"] as? String, "Production")
      XCTAssertEqual((payload["appAppleId"] as? NSNumber)?.int64Value, 1_234_567_890)
      XCTAssertEqual((payload["originalPurchaseDate"] as? NSNumber)?.int64Value, SignedPayloads.milliseconds(TestStore.start))
    }
  }

  func testErrors() throws {
    let fixture = try APIFixture(signer: UnsignedTestSigner())
    assertAPIError(fixture.get("/inApps/v1/transactions/appTransactions/x1"), 4_000_006)
    assertAPIError(fixture.get("/inApps/v1/transactions/appTransactions/8"), 4_040_010)
    let withoutSigner = try APIFixture()
    let bought = try withoutSigner.buy(FixtureCatalog.coins)[0]
    assertAPIError(withoutSigner.get("/inApps/v1/transactions/appTransactions/\(bought.id)"), 4_040_019)
  }
}
