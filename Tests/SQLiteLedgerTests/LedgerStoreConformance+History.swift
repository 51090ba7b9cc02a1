import StoreEngine
import XCTest

/// History pages, their summaries and consumable units: every store pages exactly as the reference
/// (``LedgerStore/page(of:order:after:limit:)`` over the in-memory store's history) does.
extension LedgerStoreConformance {
  /// Random multi-account histories (``HistoryScript``), checked at a few points as they grow:
  /// for every account and for all of them, in both orders, with every limit from 1 to n + 1, the
  /// pages hold the reference's rows page for page, their concatenation is the whole history in
  /// that order, and consumable units are the reference's.
  func historyPagesFollowTheReference() throws {
    for seed in UInt64(1)...3 {
      let store = try harness.makeStore()
      let reference = InMemoryLedgerStore()
      let script = HistoryScript(seed: seed, steps: 36)
      for (step, batch) in script.batches.enumerated() {
        try store.commit(batch)
        try reference.commit(batch)
        if step % 12 == 11 { try Self.assertPagesMatch(store, reference, "seed \(seed), step \(step)") }
      }
    }
  }

  /// ``historyPagesFollowTheReference()``'s check of `store` against `reference` as they are now.
  static func assertPagesMatch(
    _ store: any LedgerStore, _ reference: InMemoryLedgerStore, _ context: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    XCTAssertEqual(try store.allTransactions(), try reference.allTransactions(), context, file: file, line: line)
    for account in HistoryScript.accounts + [nil] {
      let all = try account.map { try reference.history(account: $0) } ?? reference.allTransactions()
      XCTAssertFalse(all.isEmpty && account == nil, "the script wrote nothing (\(context))", file: file, line: line)
      for order in [HistoryOrder.insertion, .lastModified] {
        let whole = InMemoryLedgerStore.page(of: all, order: order, after: nil, limit: all.count + 1).rows
        for limit in 1...(all.count + 1) {
          let label = "\(context), account \(account ?? "all"), \(order), limit \(limit)"
          var expected = InMemoryLedgerStore.page(of: all, order: order, after: nil, limit: limit)
          var page = try store.historyPage(account: account, order: order, after: nil, limit: limit)
          var walked: [PaymentTransaction] = []
          for _ in 0...all.count {
            XCTAssertEqual(page.rows.map(\.id), expected.rows.map(\.id), label, file: file, line: line)
            XCTAssertEqual(page.next == nil, expected.next == nil, "the last page is the last (\(label))", file: file, line: line)
            walked += page.rows
            guard let next = page.next, let expectedNext = expected.next else { break }
            page = try store.historyPage(account: account, order: order, after: next, limit: limit)
            expected = InMemoryLedgerStore.page(of: all, order: order, after: expectedNext, limit: limit)
          }
          XCTAssertEqual(walked, whole, "the pages make the whole history (\(label))", file: file, line: line)
        }
      }
      for limit in [1, 2, 5, all.count + 1] {
        for expiringOnly in [false, true] {
          var summaries: [TransactionSummary] = []
          var cursor: HistoryCursor?
          for _ in 0...all.count {
            let page = try store.historySummaryPage(account: account, after: cursor, limit: limit, expiringOnly: expiringOnly)
            XCTAssertLessThanOrEqual(page.rows.count, limit, file: file, line: line)
            summaries += page.rows
            cursor = page.next
            if cursor == nil { break }
          }
          XCTAssertNil(cursor, "the summaries end (\(context), limit \(limit))", file: file, line: line)
          XCTAssertEqual(
            summaries, all.filter { !expiringOnly || $0.expiresDate != nil }.map(TransactionSummary.init),
            "\(context), summaries of \(account ?? "all"), limit \(limit), expiringOnly \(expiringOnly)", file: file, line: line)
        }
      }
      if let account {
        XCTAssertEqual(
          try store.consumableUnits(account: account), InMemoryLedgerStore.consumableUnits(in: all),
          "\(context), consumable units of \(account)", file: file, line: line)
        try assertFilteredPagesMatch(store, account: account, all: all, context, file: file, line: line)
      }
    }
  }

  /// `Transaction.all`'s pages (``LedgerStore/historyPage(account:after:limit:keeping:)``): pages of
  /// at most `limit` rows that together are the history's rows the filter keeps, in insertion order.
  static func assertFilteredPagesMatch(
    _ store: any LedgerStore, account: String, all: [PaymentTransaction], _ context: String, file: StaticString, line: UInt
  ) throws {
    let filters = [HistoryFilter(), .storeKitAll()] + Set(all.map(\.productID)).sorted().prefix(2).map { HistoryFilter.storeKitAll(productID: $0) }
    for filter in filters {
      for limit in [1, 2, 5, all.count + 1] {
        var walked: [PaymentTransaction] = []
        var cursor: HistoryCursor?
        for _ in 0...all.count {
          let page = try store.historyPage(account: account, after: cursor, limit: limit, keeping: filter)
          XCTAssertLessThanOrEqual(page.rows.count, limit, file: file, line: line)
          walked += page.rows
          cursor = page.next
          if cursor == nil { break }
        }
        XCTAssertNil(cursor, "the filtered pages end (\(context), \(filter), limit \(limit))", file: file, line: line)
        XCTAssertEqual(
          walked, all.filter(filter.accepts), "\(context), \(account)'s pages keeping \(filter), limit \(limit)", file: file, line: line)
      }
    }
  }

  /// An empty history is one empty last page; a cursor of the other order starts from the start.
  func historyPageEdges() throws {
    let store = try harness.makeStore()
    for order in [HistoryOrder.insertion, .lastModified] {
      XCTAssertEqual(try store.historyPage(account: nil, order: order, after: nil, limit: 5), HistoryPage(rows: [], next: nil))
      XCTAssertEqual(try store.historyPage(account: "alice", order: order, after: nil, limit: 5), HistoryPage(rows: [], next: nil))
    }
    XCTAssertEqual(try store.consumableUnits(account: "alice"), [:])
    let rows = (UInt64(1)...3).map { LedgerFixtures.transaction($0, state: .purchased, secondsAfterBase: Double($0)) }
    try store.commit(rows.map { .putTransaction($0) })
    let first = try store.historyPage(account: "alice", order: .insertion, after: nil, limit: 1)
    XCTAssertEqual(first.rows, [rows[0]])
    let other = try XCTUnwrap(try store.historyPage(account: "alice", order: .lastModified, after: nil, limit: 1).next)
    XCTAssertEqual(try store.historyPage(account: "alice", order: .insertion, after: other, limit: 3).rows, rows)
    XCTAssertEqual(try store.historyPage(account: "alice", order: .lastModified, after: first.next, limit: 3).rows, rows)
    XCTAssertEqual(try store.historyPage(account: "alice", order: .insertion, after: nil, limit: 0).rows, [rows[0]], "a limit below 1 is 1")
    XCTAssertEqual(try store.consumableUnits(account: "alice"), [Product.ID("com.example.gems"): 3])
  }
}
