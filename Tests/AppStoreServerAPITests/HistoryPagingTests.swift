import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// A ledger that forwards to another and counts whole-history reads: the API pages through
/// `historyPage` and reads named rows, never `history(account:)` or `allTransactions()`. It pages
/// forward only, so a descending history goes through the protocol's default.
final class PagingLedger: LedgerStore {
  let base: InMemoryLedgerStore
  private(set) var wholeReads = 0
  private(set) var largestPage = 0
  private(set) var historyPages = 0
  private(set) var loads = 0
  private(set) var revocationPages = 0

  init(_ base: InMemoryLedgerStore) { self.base = base }

  func load() throws(LedgerError) -> LedgerSnapshot {
    loads += 1
    return try base.load()
  }
  func commit(_ changes: [LedgerChange]) throws(LedgerError) { try base.commit(changes) }
  func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 {
    try base.reserveTransactionIDs(count: count, atLeast: floor)
  }
  func history(account: String) throws(LedgerError) -> [PaymentTransaction] {
    wholeReads += 1
    return try base.history(account: account)
  }
  func allTransactions() throws(LedgerError) -> [PaymentTransaction] {
    wholeReads += 1
    return try base.allTransactions()
  }
  func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] { try base.transactions(ids) }
  func historyPage(
    account: String?, order: HistoryOrder, after cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage {
    let page = try base.historyPage(account: account, order: order, after: cursor, limit: limit)
    historyPages += 1
    largestPage = max(largestPage, page.rows.count)
    return page
  }
  /// Revocation pages as an index answers them (the reference), counted apart from history pages.
  func revokedPage(account: String, after cursor: RevocationKey?, limit: Int) throws(LedgerError) -> RevokedPage {
    revocationPages += 1
    return InMemoryLedgerStore.revokedPage(of: try base.history(account: account), descending: false, from: cursor, limit: limit)
  }
  func revokedPage(account: String, before cursor: RevocationKey?, limit: Int) throws(LedgerError) -> RevokedPage {
    revocationPages += 1
    return InMemoryLedgerStore.revokedPage(of: try base.history(account: account), descending: true, from: cursor, limit: limit)
  }
  func subscriptions(account: String, statuses: Set<SubscriptionStatus>?) throws(LedgerError) -> [SubscriptionRecord] {
    try base.subscriptions(account: account, statuses: statuses)
  }
  func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? {
    try base.massExtension(productID: productID, requestID: requestID)
  }
}

/// Get Transaction History, Get All Subscription Statuses and Get Refund History over a ledger read
/// a page at a time: the pages are the whole history's, in Apple's order, through refunds in the
/// middle of it and purchases made between requests.
final class HistoryPagingTests: XCTestCase {
  private struct Paged {
    let fixture: APIFixture
    let ledger: PagingLedger
    let api: AppStoreServerAPI

    init() throws {
      fixture = try APIFixture()
      ledger = PagingLedger(fixture.store.ledger)
      api = AppStoreServerAPI(
        ledger: ledger, environment: .sandbox, bundleID: fixture.bundleID, now: { TestStore.start })
    }

    func get(_ path: String, _ query: [(String, String)] = []) -> APIResponse {
      api.handle(APIRequest(method: "GET", path: path, query: query.map { (name: $0.0, value: $0.1) }))
    }

    /// One history page: its ids, revision and hasMore.
    func page(_ id: PaymentTransaction.ID, _ query: [(String, String)], after revision: String? = nil) -> (ids: [String], revision: String?, hasMore: Bool) {
      let response = get("/inApps/v2/history/\(id)", query + (revision.map { [("revision", $0)] } ?? []))
      XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
      return (transactionIDs(response), json(response)["revision"] as? String, json(response)["hasMore"] as? Bool == true)
    }

    /// Every page, in order.
    func pages(_ id: PaymentTransaction.ID, _ query: [(String, String)] = []) -> [[String]] {
      var result: [[String]] = []
      var revision: String?
      while result.count < 20 {
        let page = page(id, query, after: revision)
        result.append(page.ids)
        revision = page.revision
        guard page.hasMore else { break }
      }
      return result
    }

    /// The account's purchased rows as the whole history orders them: by (signedDate, id).
    func lastModifiedOrder() throws -> [String] {
      try fixture.store.ledger.history(account: "tester").filter { $0.state == .purchased }
        .sorted { ($0.lastModifiedMilliseconds, $0.id) < ($1.lastModifiedMilliseconds, $1.id) }.map(\.id.description)
    }
  }

  func testPagesThroughRefundsInTheMiddleOfTheHistory() throws {
    let paged = try Paged()
    let bought = try paged.fixture.buy(FixtureCatalog.coins, count: 45)
    try paged.fixture.store.queue.advance(by: 60)
    let refunded = [bought[3], bought[21], bought[30]]
    for row in refunded { try paged.fixture.store.queue.refund(row.id) }
    try paged.fixture.buy(FixtureCatalog.coins, count: 2)

    let ascending = paged.pages(bought[0].id)
    XCTAssertEqual(ascending.map(\.count), [20, 20, 7])
    XCTAssertEqual(ascending.joined().map { $0 }, try paged.lastModifiedOrder())
    XCTAssertEqual(Array(ascending.joined().suffix(5).prefix(3)), refunded.map(\.id.description), "re-signed rows come after the rest")
    XCTAssertEqual(paged.pages(bought[0].id, [("sort", "DESCENDING")]).joined().map { $0 }, try paged.lastModifiedOrder().reversed())
    XCTAssertEqual(paged.pages(bought[0].id, [("revoked", "true")]), [refunded.map(\.id.description)])
    let kept = paged.pages(bought[0].id, [("revoked", "false"), ("sort", "DESCENDING")])
    XCTAssertEqual(kept.map(\.count), [20, 20, 4])
    XCTAssertFalse(kept.joined().contains(refunded[1].id.description))
    // Each answer is the fixture's own API's, over the same ledger, byte for byte.
    for query in [[], [("sort", "DESCENDING")], [("productType", "CONSUMABLE"), ("revoked", "true")]] {
      let path = "/inApps/v2/history/\(bought[9].id)"
      XCTAssertEqual(paged.get(path, query).body, paged.fixture.get(path, query).body)
    }
    let refunds = paged.get("/inApps/v2/refund/lookup/\(bought[0].id)")
    XCTAssertEqual(transactionIDs(refunds), refunded.map(\.id.description))
    XCTAssertEqual(paged.ledger.wholeReads, 0, "pages only")
    XCTAssertLessThanOrEqual(paged.ledger.largestPage, 336)
  }

  /// Refund History reads revocation pages only: 25 refunds made out of id order page as 20 and
  /// 5 in revocation order, v1 lists them all oldest first, and both answers are byte for byte
  /// the ones the default (a walk of the whole history) gives.
  func testRefundHistoryReadsRevocationPagesNotTheHistory() throws {
    let paged = try Paged()
    let bought = try paged.fixture.buy(FixtureCatalog.coins, count: 60)
    var refunded: [PaymentTransaction] = []
    for index in Array(stride(from: 58, to: 0, by: -7)) + Array(stride(from: 3, to: 60, by: 2)) where refunded.count < 25 {
      guard !refunded.contains(where: { $0.id == bought[index].id }) else { continue }
      try paged.fixture.store.queue.advance(by: 1)
      try paged.fixture.store.queue.refund(bought[index].id)
      refunded.append(bought[index])
    }
    XCTAssertEqual(refunded.count, 25)
    let path = "/inApps/v2/refund/lookup/\(bought[0].id)"
    let first = paged.get(path)
    XCTAssertEqual(transactionIDs(first), refunded.prefix(20).map(\.id.description))
    XCTAssertEqual(json(first)["hasMore"] as? Bool, true)
    XCTAssertEqual(first.body, paged.fixture.get(path).body)
    let revision = try XCTUnwrap(json(first)["revision"] as? String)
    let second = paged.get(path, [("revision", revision)])
    XCTAssertEqual(transactionIDs(second), refunded.suffix(5).map(\.id.description))
    XCTAssertEqual(json(second)["hasMore"] as? Bool, false)
    XCTAssertEqual(second.body, paged.fixture.get(path, [("revision", revision)]).body)
    let v1 = "/inApps/v1/refund/lookup/\(bought[0].id)"
    XCTAssertEqual(transactionIDs(paged.get(v1)), refunded.map(\.id.description))
    XCTAssertEqual(paged.get(v1).body, paged.fixture.get(v1).body)
    XCTAssertEqual(paged.ledger.historyPages, 0, "no history page")
    XCTAssertEqual(paged.ledger.wholeReads, 0)
    XCTAssertGreaterThan(paged.ledger.revocationPages, 0)
  }

  func testARevisionSurvivesPurchasesAndRefundsBetweenRequests() throws {
    let paged = try Paged()
    let bought = try paged.fixture.buy(FixtureCatalog.coins, count: 30)
    let first = paged.page(bought[0].id, [])
    XCTAssertEqual(first.ids, bought.prefix(20).map(\.id.description))
    let newestFirst = paged.page(bought[0].id, [("sort", "DESCENDING")])
    XCTAssertEqual(newestFirst.ids, bought.suffix(20).reversed().map(\.id.description))

    // Between requests: five purchases, and a refund of a row the first page already returned.
    try paged.fixture.store.queue.advance(by: 60)
    let later = try paged.fixture.buy(FixtureCatalog.coins, count: 5)
    try paged.fixture.store.queue.advance(by: 1)
    try paged.fixture.store.queue.refund(bought[4].id)

    let second = paged.page(bought[0].id, [], after: first.revision)
    XCTAssertEqual(second.ids, (bought.suffix(10) + later + [bought[4]]).map(\.id.description))
    XCTAssertFalse(second.hasMore)
    // Descending continues into the older rows; what came later is before its position.
    let older = paged.page(bought[0].id, [("sort", "DESCENDING")], after: newestFirst.revision)
    XCTAssertEqual(older.ids, bought.prefix(10).reversed().filter { $0.id != bought[4].id }.map(\.id.description))
    XCTAssertFalse(older.hasMore)
    XCTAssertEqual(paged.ledger.wholeReads, 0)
  }

  func testStatusesReadTheTransactionEachRecordNamesAndAnOldRecordStillFindsItsChain() throws {
    let paged = try Paged()
    let monthly = try paged.fixture.buy(FixtureCatalog.monthly)[0]
    try paged.fixture.buy(FixtureCatalog.coins, count: 3)
    try paged.fixture.store.queue.advance(by: 70 * 86_400)
    let path = "/inApps/v1/subscriptions/\(monthly.id)"
    let named = paged.get(path)
    XCTAssertEqual(named.status, 200)
    XCTAssertEqual(paged.ledger.wholeReads, 0)
    XCTAssertEqual(paged.ledger.largestPage, 0, "no history page at all")
    XCTAssertEqual(paged.ledger.loads, 0, "the account's records, not every account's")
    let record = try XCTUnwrap(paged.fixture.store.ledger.everything.subscriptions.first)
    let latest = try XCTUnwrap(
      paged.fixture.store.ledger.history(account: "tester").filter { $0.originalID == monthly.id }.max { $0.purchaseDate < $1.purchaseDate })
    XCTAssertEqual(record.currentTransactionID, latest.id)
    let items = (json(named)["data"] as? [[String: Any]])?.first?["lastTransactions"] as? [[String: Any]]
    XCTAssertEqual(items?.first?["signedTransactionInfo"] as? String, latest.signedTransaction)

    // A record written before it named its transaction: the chain is found in the history.
    var old = record
    old.currentTransactionID = nil
    try paged.fixture.store.ledger.commit([.putSubscription(old)])
    XCTAssertEqual(paged.get(path).body, named.body)
    // One that names a deleted row: the chain's latest remaining transaction.
    try paged.fixture.store.ledger.commit([.putSubscription(record), .deleteTransaction(latest.id)])
    let afterDeletion = (json(paged.get(path))["data"] as? [[String: Any]])?.first?["lastTransactions"] as? [[String: Any]]
    let previous = try XCTUnwrap(
      paged.fixture.store.ledger.history(account: "tester").filter { $0.originalID == monthly.id }.max { $0.purchaseDate < $1.purchaseDate })
    XCTAssertNotEqual(previous.id, latest.id)
    XCTAssertEqual(afterDeletion?.first?["signedTransactionInfo"] as? String, previous.signedTransaction)
  }
}
