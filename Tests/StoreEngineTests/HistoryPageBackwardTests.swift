import Foundation
import StoreEngine
import XCTest

/// `historyPage(account:order:before:limit:)`'s default, which reads newest-first pages out of
/// ascending ones, walks every history as the whole-history reference does: rows re-signed later,
/// bursts in one millisecond, gaps of years, several accounts, every page size.
final class HistoryPageBackwardTests: XCTestCase {
  /// A ledger that pages forward only through the protocol's defaults, counting whole-history reads.
  private final class ForwardOnlyLedger: LedgerStore {
    let base: InMemoryLedgerStore
    private(set) var wholeReads = 0
    private(set) var forwardPages = 0
    init(_ base: InMemoryLedgerStore) { self.base = base }

    func load() throws(LedgerError) -> LedgerSnapshot { try base.load() }
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
      forwardPages += 1
      return try base.historyPage(account: account, order: order, after: cursor, limit: limit)
    }
    func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? { nil }
  }

  /// A compact JWS whose payload holds only `signedDate` (all the order reads).
  private static func jws(signedAt milliseconds: Int64) -> String {
    let payload = Data("{\"signedDate\":\(milliseconds)}".utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    return "eyJhbGciOiJub25lIn0.\(payload).c2ln"
  }

  private static func row(_ id: UInt64, account: String, signedAt milliseconds: Int64) -> PaymentTransaction {
    var row = PaymentTransaction(
      id: PaymentTransaction.ID(1_000_000_000 + id), account: account, productID: Product.ID("coins"), productKind: .consumable,
      state: .purchased, purchaseDate: Date(timeIntervalSince1970: 1_767_225_600))
    row.signedTransaction = jws(signedAt: milliseconds)
    return row
  }

  /// Random histories: mostly 15 s apart, with bursts in one millisecond and jumps of years; some
  /// rows re-signed later (a refund), which moves them to the end of the order.
  private static func randomLedger(seed: UInt64) throws -> InMemoryLedgerStore {
    var random = SplitMix64(seed: seed)
    let ledger = InMemoryLedgerStore()
    var rows: [PaymentTransaction] = []
    var clock: Int64 = 1_767_225_600_000
    let count = Int.random(in: 0...90, using: &random)
    for id in 0..<UInt64(count) {
      switch Int.random(in: 0..<10, using: &random) {
      case 0: break  // the same millisecond as the last
      case 1: clock += Int64.random(in: 1...(3 * 365 * 86_400_000), using: &random)
      default: clock += Int64.random(in: 1...30_000, using: &random)
      }
      rows.append(row(id, account: ["a", "b"].randomElement(using: &random) ?? "a", signedAt: clock))
    }
    for index in rows.indices where Int.random(in: 0..<6, using: &random) == 0 {
      rows[index].signedTransaction = jws(signedAt: clock + Int64.random(in: 0...5_000, using: &random))
    }
    try ledger.commit(rows.map(LedgerChange.putTransaction))
    return ledger
  }

  /// Every page of `account` newest-first, walked with `read`.
  private func walk(
    limit: Int, _ read: (HistoryCursor?) throws -> HistoryPage
  ) throws -> [PaymentTransaction.ID] {
    var ids: [PaymentTransaction.ID] = []
    var cursor: HistoryCursor?
    for _ in 0...200 {
      let page = try read(cursor)
      XCTAssertLessThanOrEqual(page.rows.count, limit)
      ids += page.rows.map(\.id)
      guard let next = page.next else { return ids }
      XCTAssertFalse(page.rows.isEmpty, "a page with a next page holds rows")
      cursor = next
    }
    XCTFail("no end after 200 pages")
    return ids
  }

  func testNewestFirstPagesMatchTheReferenceOverRandomHistories() throws {
    for seed in UInt64(1)...8 {
      let base = try Self.randomLedger(seed: seed)
      let ledger = ForwardOnlyLedger(base)
      for account in ["a", "b", nil] {
        let all = try account.map { try base.history(account: $0) } ?? base.allTransactions()
        let newestFirst = all.sorted { ($0.lastModifiedMilliseconds, $0.id) > ($1.lastModifiedMilliseconds, $1.id) }.map(\.id)
        for limit in [1, 3, 20, all.count + 1] {
          let reference = try walk(limit: limit) { cursor in
            Self.reference(all, before: cursor, limit: limit)
          }
          XCTAssertEqual(reference, newestFirst, "the reference, seed \(seed), \(account ?? "all"), limit \(limit)")
          let read = try walk(limit: limit) { cursor in
            try ledger.historyPage(account: account, order: .lastModified, before: cursor, limit: limit)
          }
          XCTAssertEqual(read, newestFirst, "seed \(seed), \(account ?? "all"), limit \(limit)")
        }
      }
      XCTAssertEqual(ledger.wholeReads, 0, "seed \(seed): pages only, never the whole history")
    }
  }

  func testAnInsertionOrderPageBeforeACursorIsTheReferences() throws {
    let base = try Self.randomLedger(seed: 7)
    let all = try base.allTransactions()
    let read = try walk(limit: 4) { cursor in try base.historyPage(account: nil, order: .insertion, before: cursor, limit: 4) }
    XCTAssertEqual(read, all.reversed().map(\.id))
  }

  func testAnEmptyHistoryHasOneEmptyPage() throws {
    let page = try ForwardOnlyLedger(InMemoryLedgerStore()).historyPage(account: "a", order: .lastModified, before: nil, limit: 5)
    XCTAssertEqual(page, HistoryPage(rows: [], next: nil))
  }

  private static func reference(_ all: [PaymentTransaction], before cursor: HistoryCursor?, limit: Int) -> HistoryPage {
    InMemoryLedgerStore.page(of: all, order: .lastModified, before: cursor, limit: limit)
  }
}
