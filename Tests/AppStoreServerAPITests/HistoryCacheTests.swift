import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Get Transaction History over a ledger with a change feed keeps each history between requests:
/// every page is what a server reading the ledger afresh answers, through purchases, re-signed rows
/// and deletions made between requests, and a history is read whole only when the feed cannot say
/// what changed.
final class HistoryCacheTests: XCTestCase {
  private func pages(_ api: AppStoreServerAPI, _ id: PaymentTransaction.ID, _ query: [(String, String)] = []) -> [[String]] {
    var pages: [[String]] = []
    var revision: String?
    for _ in 0..<20 {
      let query = query + (revision.map { [("revision", $0)] } ?? [])
      let response = api.handle(APIRequest(method: "GET", path: "/inApps/v2/history/\(id)", query: query.map { (name: $0.0, value: $0.1) }))
      XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
      pages.append(transactionIDs(response))
      revision = json(response)["revision"] as? String
      guard json(response)["hasMore"] as? Bool == true else { break }
    }
    return pages
  }

  func testPagesMatchAFreshReadThroughPurchasesRefundsAndDeletions() throws {
    let fixture = try APIFixture()
    let feed = FeedLedger(fixture.store.ledger)
    let cached = AppStoreServerAPI(
      ledger: feed, environment: .sandbox, bundleID: fixture.bundleID, now: { TestStore.start }, changeFeed: true)
    let first = try fixture.buy(FixtureCatalog.coins, count: 25)
    let id = first[0].id
    for query in [[], [("sort", "DESCENDING")], [("productType", "CONSUMABLE")]] {
      XCTAssertEqual(pages(cached, id, query), pages(fixture.api, id, query), "\(query)")
    }
    XCTAssertEqual(pages(cached, id).map(\.count), [20, 5])
    let reads = feed.historyReads

    // New purchases join the cached history; a refund re-signs a row, which moves to the end.
    try fixture.buy(FixtureCatalog.removeAds)
    try fixture.buy(FixtureCatalog.coins, count: 3)
    try fixture.store.queue.advance(by: 60)
    try fixture.store.queue.refund(first[2].id)
    for query in [[], [("sort", "DESCENDING")], [("revoked", "true")]] {
      XCTAssertEqual(pages(cached, id, query), pages(fixture.api, id, query), "\(query)")
    }
    XCTAssertEqual(pages(cached, id).joined().last, first[2].id.description, "the re-signed row comes last")
    XCTAssertEqual(feed.historyReads, reads, "the changes came through the feed, not by reading the history again")

    // A commit of the clock alone keeps the cache.
    try fixture.store.queue.advance(by: 60)
    XCTAssertEqual(pages(cached, id), pages(fixture.api, id))
    XCTAssertEqual(feed.historyReads, reads)

    // A deletion is not in the feed: the page it was on no longer matches, the history is read
    // again, and the row is gone (one on the first page, one on the second).
    for deleted in [first[5], first[22]] {
      _ = try fixture.store.queue.perform(.deleteTransaction(deleted.id))
      XCTAssertEqual(pages(cached, id), pages(fixture.api, id))
      XCTAssertFalse(pages(cached, id).joined().contains(deleted.id.description))
    }
    XCTAssertEqual(feed.historyReads, reads + 2)

    try fixture.store.queue.clearPurchaseHistory()
    let cleared = cached.handle(APIRequest(method: "GET", path: "/inApps/v2/history/\(id)"))
    assertAPIError(cleared, 4_040_010)
  }

  func testAPageFromTheMiddleOfASortedHistoryIsFoundByItsRevision() throws {
    let fixture = try APIFixture()
    let cached = AppStoreServerAPI(
      ledger: FeedLedger(fixture.store.ledger), environment: .sandbox, bundleID: fixture.bundleID, now: { TestStore.start },
      changeFeed: true)
    let bought = try fixture.buy(FixtureCatalog.coins, count: 45)
    let all = pages(cached, bought[0].id)
    XCTAssertEqual(all.map(\.count), [20, 20, 5])
    XCTAssertEqual(all.joined().map { $0 }, bought.map(\.id.description))
    XCTAssertEqual(pages(cached, bought[0].id, [("sort", "DESCENDING")]).joined().map { $0 }, bought.reversed().map(\.id.description))
  }
}

/// Get All Subscription Statuses and Get Refund History read the same kept histories.
final class CachedStatusAndRefundTests: XCTestCase {
  func testStatusesAndRefundsMatchAFreshReadThroughRenewalsRefundsAndDeletions() throws {
    let fixture = try APIFixture()
    let cached = AppStoreServerAPI(
      ledger: FeedLedger(fixture.store.ledger), environment: .sandbox, bundleID: fixture.bundleID, now: { TestStore.start },
      changeFeed: true)
    let coins = try fixture.buy(FixtureCatalog.coins, count: 3)
    let monthly = try fixture.buy(FixtureCatalog.monthly)[0]
    func same(_ note: String) {
      for path in ["/inApps/v1/subscriptions/\(coins[0].id)", "/inApps/v2/refund/lookup/\(coins[0].id)"] {
        let kept = cached.handle(APIRequest(method: "GET", path: path))
        let fresh = fixture.api.handle(APIRequest(method: "GET", path: path))
        XCTAssertEqual(kept.status, 200, "\(note): \(path)")
        XCTAssertEqual(kept.status, fresh.status, "\(note): \(path)")
        XCTAssertEqual(String(decoding: kept.body, as: UTF8.self), String(decoding: fresh.body, as: UTF8.self), "\(note): \(path)")
      }
    }
    same("first read")
    try fixture.store.queue.advance(by: 40 * 86_400)
    same("after renewals")
    try fixture.store.queue.refund(coins[1].id)
    try fixture.store.queue.refund(monthly.id)
    same("after refunds")
    let statuses = json(cached.handle(APIRequest(method: "GET", path: "/inApps/v1/subscriptions/\(coins[0].id)")))
    let chains = (statuses["data"] as? [[String: Any]])?.first?["lastTransactions"] as? [[String: Any]]
    XCTAssertEqual(chains?.first?["status"] as? Int, 5, "the refunded subscription is revoked")
    XCTAssertEqual(transactionIDs(cached.handle(APIRequest(method: "GET", path: "/inApps/v2/refund/lookup/\(coins[0].id)"))).count, 2)
    _ = try fixture.store.queue.perform(.deleteTransaction(coins[1].id))
    same("after a deletion")
    XCTAssertEqual(transactionIDs(cached.handle(APIRequest(method: "GET", path: "/inApps/v2/refund/lookup/\(coins[0].id)"))).count, 1)
  }
}
