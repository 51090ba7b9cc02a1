import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class NotificationEndpointTests: XCTestCase {
  func testRequestingATestNotificationWithoutAURLIsNotFound() throws {
    let fixture = try APIFixture()
    assertAPIError(fixture.send("POST", "/inApps/v1/notifications/test", body: ""), 4_040_007)
  }

  func testTestNotificationStatus() throws {
    let fixture = try APIFixture()
    assertAPIError(fixture.get("/inApps/v1/notifications/test/ce3af791-365e-4c60-841b-1674b43c1609"), 4_040_008)
    assertAPIError(fixture.get("/inApps/v1/notifications/test/"), 4_000_020)
    assertAPIError(fixture.get("/inApps/v1/notifications/test/a%20b"), 4_000_020)
  }

  func testNotificationHistoryIsEmptyForAValidRequest() throws {
    let fixture = try APIFixture()
    let now = SignedPayloads.milliseconds(TestStore.start)
    let body = #"{"startDate":\#(now - 1000),"endDate":\#(now).0,"notificationType":"SUBSCRIBED","notificationSubtype":"INITIAL_BUY","onlyFailures":true}"#
    let response = fixture.send("POST", "/inApps/v1/notifications/history", body: body)
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"hasMore":false,"notificationHistory":[]}"#)
  }

  func testNotificationHistoryErrors() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    let now = SignedPayloads.milliseconds(TestStore.start)
    let window = #""startDate":\#(now - 1000),"endDate":\#(now)"#
    let cases: [(String, [(String, String)], Int64)] = [
      ("{", [], 4_000_000),
      (#"{"endDate":\#(now)}"#, [], 4_000_015),
      (#"{"startDate":"x","endDate":\#(now)}"#, [], 4_000_015),
      (#"{"startDate":\#(now)}"#, [], 4_000_016),
      (#"{"startDate":\#(now),"endDate":\#(now - 1)}"#, [], 4_000_013),
      (#"{"startDate":\#(now - 31 * 86_400_000),"endDate":\#(now)}"#, [], 4_000_012),
      (#"{\#(window),"notificationType":"SUBSCRIBED","transactionId":"\#(bought.id)"}"#, [], 4_000_019),
      (#"{\#(window),"notificationType":"BOUGHT"}"#, [], 4_000_018),
      (#"{\#(window),"notificationSubtype":"INITIAL_BUY"}"#, [], 4_000_018),
      (#"{\#(window),"transactionId":"abc"}"#, [], 4_000_006),
      (#"{\#(window),"transactionId":"12"}"#, [], 4_040_010),
      (#"{\#(window),"onlyFailures":"yes"}"#, [], 4_000_000),
      (#"{\#(window)}"#, [("paginationToken", "a036bc0e-52b8-4bee-82fc-8c24cb6715d6")], 4_000_014),
    ]
    for (body, query, code) in cases {
      assertAPIError(fixture.send("POST", "/inApps/v1/notifications/history", body: body, query), code)
    }
    XCTAssertEqual(fixture.send("POST", "/inApps/v1/notifications/history", body: #"{\#(window),"transactionId":"\#(bought.id)"}"#).status, 200)
  }
}
