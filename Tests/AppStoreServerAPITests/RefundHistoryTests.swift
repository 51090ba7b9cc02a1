import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class RefundHistoryTests: XCTestCase {
  func testRevokedTransactionsInRevocationOrder() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins, count: 3)
    try fixture.store.queue.refund(bought[2].id)
    try fixture.store.queue.advance(by: 60)
    try fixture.store.queue.refund(bought[0].id)
    let response = fixture.get("/inApps/v2/refund/lookup/\(bought[1].id)")
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(transactionIDs(response), [bought[2].id.description, bought[0].id.description])
    XCTAssertEqual(json(response)["hasMore"] as? Bool, false)
    XCTAssertEqual(json(response)["signedTransactions"] as? [String], [try fixture.jws(bought[2].id), try fixture.jws(bought[0].id)])
  }

  func testNoRefundsIsAnEmptyList() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.removeAds)[0]
    let object = json(fixture.get("/inApps/v2/refund/lookup/\(bought.id)"))
    XCTAssertEqual(object["signedTransactions"] as? [String], [])
    XCTAssertEqual(object["hasMore"] as? Bool, false)
    XCTAssertNotNil(object["revision"] as? String)
  }

  func testTwentyFiveRefundsComeInTwoPages() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins, count: 25)
    for transaction in bought { try fixture.store.queue.refund(transaction.id) }
    let path = "/inApps/v2/refund/lookup/\(bought[0].id)"
    let first = fixture.get(path)
    XCTAssertEqual(transactionIDs(first).count, 20)
    XCTAssertEqual(json(first)["hasMore"] as? Bool, true)
    let second = fixture.get(path, [("revision", try XCTUnwrap(json(first)["revision"] as? String))])
    XCTAssertEqual(transactionIDs(first) + transactionIDs(second), bought.map(\.id.description))
    XCTAssertEqual(json(second)["hasMore"] as? Bool, false)
  }

  /// Get Refund History V1 (deprecated): the latest 50, oldest revocation first, one page.
  func testVersion1ListsTheLatestFiftyRefunds() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins, count: 52)
    for transaction in bought {
      try fixture.store.queue.refund(transaction.id)
      try fixture.store.queue.advance(by: 1)
    }
    let response = fixture.get("/inApps/v1/refund/lookup/\(bought[0].id)")
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(Set(json(response).keys), ["signedTransactions"])
    XCTAssertEqual(transactionIDs(response), bought.dropFirst(2).map(\.id.description))
    assertAPIError(fixture.get("/inApps/v1/refund/lookup/abc"), 4_000_008)
    assertAPIError(fixture.get("/inApps/v1/refund/lookup/5"), 4_040_005)
  }

  func testErrors() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    let historyRevision = json(fixture.get("/inApps/v2/history/\(bought.id)"))["revision"] as? String ?? ""
    assertAPIError(fixture.get("/inApps/v2/refund/lookup/\(bought.id)", [("revision", historyRevision)]), 4_000_005)
    assertAPIError(fixture.get("/inApps/v2/refund/lookup/\(bought.id)", [("revision", "%%%")]), 4_000_005)
    assertAPIError(fixture.get("/inApps/v2/refund/lookup/abc"), 4_000_006)
    assertAPIError(fixture.get("/inApps/v2/refund/lookup/5"), 4_040_010)
  }
}
