import StoreEngine
import XCTest

/// The present's reads (`transactionCount`, `historyRows`, `latestTransaction`): an adapter's
/// native answers are the protocol defaults' (which ``InMemoryLedgerStore`` keeps: they page
/// through the whole history).
extension LedgerStoreConformance {
  /// Random multi-account histories (``HistoryScript``), checked at a few points as they grow.
  func presentReadsFollowTheDefaults() throws {
    for seed in UInt64(4)...6 {
      let store = try harness.makeStore()
      let reference = InMemoryLedgerStore()
      let script = HistoryScript(seed: seed, steps: 36)
      for (step, batch) in script.batches.enumerated() {
        try store.commit(batch)
        try reference.commit(batch)
        if step % 12 == 11 { try Self.assertPresentReadsMatch(store, reference, "seed \(seed), step \(step)") }
      }
    }
  }

  /// ``presentReadsFollowTheDefaults()``'s check of `store` against `reference` as they are now:
  /// the count of every account and of all; every window (each offset, limits 1, 3 and past the
  /// end) in both orders; the newest row for every combination of product, chain and state that
  /// occurs (and some that do not).
  static func assertPresentReadsMatch(
    _ store: any LedgerStore, _ reference: InMemoryLedgerStore, _ context: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    for account in HistoryScript.accounts + [nil, "nobody"] {
      let label = "\(context), account \(account ?? "all")"
      let count = try reference.transactionCount(account: account)
      XCTAssertEqual(try store.transactionCount(account: account), count, label, file: file, line: line)
      for order in [HistoryOrder.insertion, .lastModified] {
        for offset in [-1] + Array(0...(count + 1)) {
          for limit in [0, 1, 3, count + 2] {
            XCTAssertEqual(
              try store.historyRows(account: account, order: order, offset: offset, limit: limit).map(\.id),
              try reference.historyRows(account: account, order: order, offset: offset, limit: limit).map(\.id),
              "\(label), \(order), rows \(offset) + \(limit)", file: file, line: line)
          }
        }
      }
      guard let account else { continue }
      let history = try reference.history(account: account)
      let products: [Product.ID?] = [nil, "com.example.unknown"] + HistoryScript.products.map { $0.0 }
      let originals: [PaymentTransaction.ID] = Set(history.map(\.originalID)).sorted { $0.rawValue < $1.rawValue }
      var chains: [PaymentTransaction.ID?] = [nil, PaymentTransaction.ID(7)]
      chains += originals.prefix(8).map { Optional($0) }
      let states: [TransactionState?] = [nil] + TransactionState.allCases
      for product in products {
        for chain in chains {
          for state in states {
            let match = TransactionMatch(product: product, originalID: chain, state: state)
            let expected = try reference.latestTransaction(account: account, matching: match)
            XCTAssertEqual(
              try store.latestTransaction(account: account, matching: match), expected,
              "\(label), latest \(match)", file: file, line: line)
          }
        }
      }
    }
  }

  /// A row moved to another account is counted there (the count follows the row's account);
  /// counts of an empty ledger and of an unknown account are 0.
  func transactionCountFollowsTheRowsAccount() throws {
    let store = try harness.makeStore()
    XCTAssertEqual(try store.transactionCount(account: nil), 0)
    XCTAssertEqual(try store.transactionCount(account: "alice"), 0)
    XCTAssertEqual(try store.historyRows(account: nil, order: .insertion, offset: 0, limit: 5), [])
    XCTAssertNil(try store.latestTransaction(account: "alice", matching: TransactionMatch()))
    let rows = (UInt64(1)...3).map { LedgerFixtures.transaction($0, state: .purchased, secondsAfterBase: Double($0)) }
    try store.commit(rows.map { .putTransaction($0) })
    var moved = rows[1]
    moved.account = "bob"
    try store.commit([.putTransaction(moved)])
    XCTAssertEqual(try store.transactionCount(account: "alice"), 2)
    XCTAssertEqual(try store.transactionCount(account: "bob"), 1)
    XCTAssertEqual(try store.transactionCount(account: nil), 3)
    XCTAssertEqual(try store.latestTransaction(account: "alice", matching: TransactionMatch()), rows[2])
    XCTAssertEqual(try store.latestTransaction(account: "bob", matching: TransactionMatch()), moved)
    try store.commit([.deleteTransaction(rows[2].id), .clearHistory(account: "bob")])
    XCTAssertEqual(try store.transactionCount(account: "alice"), 1)
    XCTAssertEqual(try store.transactionCount(account: "bob"), 0)
    XCTAssertEqual(try store.transactionCount(account: nil), 1)
    XCTAssertEqual(try store.historyRows(account: "alice", order: .lastModified, offset: 0, limit: 5), [rows[0]])
  }
}
