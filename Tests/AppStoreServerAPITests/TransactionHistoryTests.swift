import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class TransactionHistoryTests: XCTestCase {
  /// Pages through the v2 history of `id` with `query`, returning the transaction ids of each page.
  private func pages(_ fixture: APIFixture, _ id: PaymentTransaction.ID, _ query: [(String, String)] = []) -> [[String]] {
    var result: [[String]] = []
    var revision: String?
    repeat {
      let response = fixture.get("/inApps/v2/history/\(id)", query + (revision.map { [("revision", $0)] } ?? []))
      XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
      result.append(transactionIDs(response))
      revision = json(response)["revision"] as? String
      if json(response)["hasMore"] as? Bool != true { break }
    } while result.count < 10
    return result
  }

  func testFortyFiveTransactionsComeInThreePagesOfTwenty() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins, count: 45)
    let first = fixture.get("/inApps/v2/history/\(bought[0].id)")
    let object = json(first)
    XCTAssertEqual(object["hasMore"] as? Bool, true)
    XCTAssertEqual(object["bundleId"] as? String, fixture.bundleID)
    XCTAssertEqual(object["environment"] as? String, "Sandbox")
    XCTAssertNil(object["appAppleId"])
    let all = pages(fixture, bought[0].id)
    XCTAssertEqual(all.map(\.count), [20, 20, 5])
    XCTAssertEqual(all.flatMap { $0 }, bought.map(\.id.description))
  }

  func testTheLastRevisionReturnsOnlyWhatCameLater() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins, count: 3)
    let page = fixture.get("/inApps/v2/history/\(bought[0].id)")
    XCTAssertEqual(json(page)["hasMore"] as? Bool, false)
    let revision = try XCTUnwrap(json(page)["revision"] as? String)
    let later = try fixture.buy(FixtureCatalog.removeAds)[0]
    let next = fixture.get("/inApps/v2/history/\(bought[0].id)", [("revision", revision)])
    XCTAssertEqual(transactionIDs(next), [later.id.description])
    // A refund re-signs a row: ascending history returns it again with its new data.
    try fixture.store.queue.advance(by: 1)
    try fixture.store.queue.refund(bought[1].id)
    let afterRefund = fixture.get("/inApps/v2/history/\(bought[0].id)", [("revision", try XCTUnwrap(json(next)["revision"] as? String))])
    XCTAssertEqual(transactionIDs(afterRefund), [bought[1].id.description])
  }

  func testDescendingPagesNewestFirst() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins, count: 25)
    let all = pages(fixture, bought[0].id, [("sort", "DESCENDING")])
    XCTAssertEqual(all.map(\.count), [20, 5])
    XCTAssertEqual(all.flatMap { $0 }, bought.reversed().map(\.id.description))
  }

  func testAnyTransactionOfTheCustomerOrItsAppTransactionIDNamesTheHistory() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins, count: 2)
    let expected = bought.map(\.id.description)
    XCTAssertEqual(transactionIDs(fixture.get("/inApps/v2/history/\(bought[1].id)")), expected)
    let appTransactionID = SignedPayloads.appTransactionID(account: "tester", bundleID: fixture.bundleID)
    XCTAssertEqual(transactionIDs(fixture.get("/inApps/v2/history/\(appTransactionID)")), expected)
  }

  func testEachFilter() throws {
    let fixture = try APIFixture()
    let coins = try fixture.buy(FixtureCatalog.coins)[0]
    let ads = try fixture.buy(FixtureCatalog.removeAds)[0]
    let pass = try fixture.buy(FixtureCatalog.seasonPass)[0]
    let monthly = try fixture.buy(FixtureCatalog.monthly)[0]
    try fixture.store.queue.refund(ads.id)
    let path = "/inApps/v2/history/\(coins.id)"
    func ids(_ query: [(String, String)]) -> Set<String> { Set(transactionIDs(fixture.get(path, query))) }
    let all: Set = [coins, ads, pass, monthly].map(\.id.description).reduce(into: Set<String>()) { $0.insert($1) }
    XCTAssertEqual(ids([]), all)
    XCTAssertEqual(ids([("productId", FixtureCatalog.coins.rawValue), ("productId", FixtureCatalog.seasonPass.rawValue)]), [coins.id.description, pass.id.description])
    XCTAssertEqual(ids([("productId", "com.unknown")]), [])
    XCTAssertEqual(ids([("productType", "CONSUMABLE")]), [coins.id.description])
    XCTAssertEqual(ids([("productType", "NON_CONSUMABLE"), ("productType", "NON_RENEWABLE")]), [ads.id.description, pass.id.description])
    XCTAssertEqual(ids([("productType", "AUTO_RENEWABLE")]), [monthly.id.description])
    XCTAssertEqual(ids([("subscriptionGroupIdentifier", FixtureCatalog.group)]), [monthly.id.description])
    XCTAssertEqual(ids([("inAppOwnershipType", "PURCHASED")]), all)
    XCTAssertEqual(ids([("inAppOwnershipType", "FAMILY_SHARED")]), [])
    XCTAssertEqual(ids([("revoked", "true")]), [ads.id.description])
    XCTAssertEqual(ids([("revoked", "False")]), all.subtracting([ads.id.description]))
    XCTAssertEqual(ids([("excludeRevoked", "true")]), all.subtracting([ads.id.description]))
    let purchased = SignedPayloads.milliseconds(TestStore.start)
    XCTAssertEqual(ids([("startDate", String(purchased)), ("endDate", String(purchased + 1))]), all)
    XCTAssertEqual(ids([("startDate", String(purchased + 1))]), [])
    XCTAssertEqual(ids([("endDate", String(purchased))]), [])
  }

  func testDateFilterUsesThePurchaseDate() throws {
    let fixture = try APIFixture()
    let early = try fixture.buy(FixtureCatalog.coins)[0]
    try fixture.store.queue.advance(by: 3600)
    let late = try fixture.buy(FixtureCatalog.coins)[0]
    let middle = String(SignedPayloads.milliseconds(TestStore.start.addingTimeInterval(1800)))
    XCTAssertEqual(transactionIDs(fixture.get("/inApps/v2/history/\(early.id)", [("startDate", middle)])), [late.id.description])
    XCTAssertEqual(transactionIDs(fixture.get("/inApps/v2/history/\(early.id)", [("endDate", middle)])), [early.id.description])
  }

  func testVersion1LeavesOutFinishedConsumables() throws {
    let fixture = try APIFixture()
    let finished = try fixture.buy(FixtureCatalog.coins)[0]
    let unfinished = try fixture.buy(FixtureCatalog.coins, finish: false)[0]
    let ads = try fixture.buy(FixtureCatalog.removeAds)[0]
    XCTAssertEqual(transactionIDs(fixture.get("/inApps/v1/history/\(finished.id)")), [unfinished.id.description, ads.id.description])
    XCTAssertEqual(transactionIDs(fixture.get("/inApps/v2/history/\(finished.id)")).count, 3)
  }

  func testBadQueriesGetApplesErrors() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    let path = "/inApps/v2/history/\(bought.id)"
    let refunds = json(fixture.get("/inApps/v2/refund/lookup/\(bought.id)"))["revision"] as? String ?? ""
    let ascending = json(fixture.get(path))["revision"] as? String ?? ""
    let cases: [([(String, String)], Int64)] = [
      ([("revision", "garbage")], 4_000_005),
      ([("revision", "")], 4_000_005),
      ([("revision", refunds)], 4_000_005),
      ([("revision", ascending), ("sort", "DESCENDING")], 4_000_005),
      ([("revision", ascending), ("revision", ascending)], 4_000_005),
      ([("startDate", "yesterday")], 4_000_015),
      ([("startDate", "-1")], 4_000_015),
      ([("startDate", "1"), ("startDate", "2")], 4_000_015),
      ([("endDate", "1.5")], 4_000_016),
      ([("startDate", "2000"), ("endDate", "1000")], 4_000_013),
      ([("sort", "UP")], 4_000_021),
      ([("sort", "ASCENDING"), ("sort", "DESCENDING")], 4_000_021),
      ([("productType", "SUBSCRIPTION")], 4_000_022),
      ([("productId", "")], 4_000_023),
      ([("subscriptionGroupIdentifier", "")], 4_000_024),
      ([("excludeRevoked", "yes")], 4_000_025),
      ([("inAppOwnershipType", "SHARED")], 4_000_026),
      ([("revoked", "1")], 4_000_030),
    ]
    for (query, code) in cases {
      assertAPIError(fixture.get(path, query), code)
    }
    assertAPIError(fixture.get("/inApps/v2/history/abc"), 4_000_006)
    assertAPIError(fixture.get("/inApps/v2/history/123"), 4_040_010)
    assertAPIError(fixture.get("/inApps/v1/history/"), 4_000_006)
  }

  func testSwiftsWholeDoubleDatesAndPythonsBooleansAreAccepted() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    let path = "/inApps/v2/history/\(bought.id)"
    XCTAssertEqual(transactionIDs(fixture.get(path, [("startDate", "0.0"), ("revoked", "False")])), [bought.id.description])
  }
}
