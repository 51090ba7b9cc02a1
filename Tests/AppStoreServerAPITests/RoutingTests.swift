import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class RoutingTests: XCTestCase {
  func testUnknownPathsAreNotFound() throws {
    let fixture = try APIFixture()
    for path in ["/", "/inApps", "/inApps/v1", "/inApps/v3/history/1", "/inApps/v1/transactions/1/2/3", "/inApps/v1/unknown/1",
                 "/apple/inApps/v1/transactions/1", "/inApps/v1/transactions/1/", "/inApps/v1/subscriptions/extend/mass/p"] {
      let response = fixture.get(path)
      XCTAssertEqual(response.status, 404, path)
      XCTAssertEqual(response.contentType, "text/plain", path)
    }
  }

  func testAKnownPathWithAnotherMethodIsNotAllowed() throws {
    let fixture = try APIFixture()
    for (method, path) in [("POST", "/inApps/v1/transactions/1"), ("DELETE", "/inApps/v2/history/1"), ("GET", "/inApps/v1/notifications/test"),
                           ("POST", "/inApps/v1/notifications/test/abc"), ("GET", "/inApps/v1/notifications/history"), ("get", "/inApps/v1/transactions/1"),
                           ("GET", "/inApps/v1/subscriptions/extend/mass"), ("POST", "/inApps/v1/subscriptions/extend/mass/p/r"),
                           ("GET", "/inApps/v1/transactions/1/appAccountToken")] {
      XCTAssertEqual(fixture.send(method, path, body: "").status, 405, "\(method) \(path)")
    }
  }

  func testLiteralSegmentsWinOverParameters() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    // appTransactions/{id} is Get App Transaction Info (no signer here: no app transaction), not a transaction id.
    assertAPIError(fixture.get("/inApps/v1/transactions/appTransactions/\(bought.id)"), 4_040_019)
    XCTAssertEqual(fixture.send("PUT", "/inApps/v2/transactions/consumption/\(bought.id)", body: "{}").status, 400)
    assertAPIError(fixture.get("/inApps/v1/transactions/consumption"), 4_000_006)
  }
}
