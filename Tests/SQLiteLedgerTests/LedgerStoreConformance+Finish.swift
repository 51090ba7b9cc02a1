import Foundation
import StoreEngine
import XCTest

extension LedgerStoreConformance {
  /// A ``LedgerChange/finishTransaction(_:)`` reads back finished on every read path (a store may
  /// write the flag alone), a replay of it changes nothing, and a later put is written whole.
  func aFinishReadsBackFinishedOnEveryPath() throws {
    let store = try harness.makeStore()
    var renewal = LedgerFixtures.transaction(5, state: .purchased)
    renewal.productKind = .autoRenewableSubscription
    renewal.expiresDate = LedgerFixtures.baseDate.addingTimeInterval(60)
    // Large enough that a SQLite row is deflated: the finish must not need its JSON.
    renewal.signedTransaction = String(repeating: "x", count: 2000)
    let other = LedgerFixtures.transaction(6, state: .purchased)
    try store.commit([.putTransaction(renewal), .putTransaction(other)])
    var finished = renewal
    finished.isFinished = true
    try store.commit([.finishTransaction(finished)])

    XCTAssertEqual(try store.transactions([renewal.id]), [finished])
    XCTAssertEqual(try store.allTransactions(), [finished, other])
    XCTAssertEqual(try store.history(account: "alice"), [finished, other])
    XCTAssertEqual(try store.load().transactions.first { $0.id == renewal.id }, finished, "the chain's current period")
    XCTAssertEqual(try store.historyPage(account: "alice", order: .insertion, after: nil, limit: 10).rows, [finished, other])
    XCTAssertEqual(try store.historyPage(account: nil, order: .lastModified, before: nil, limit: 10).rows.filter(\.isFinished).map(\.id), [renewal.id])
    XCTAssertEqual(
      try store.historySummaryPage(account: "alice", after: nil, limit: 10, expiringOnly: true).rows.map(\.isFinished), [true])
    XCTAssertEqual(try store.historyRows(account: "alice", order: .insertion, offset: 0, limit: 1), [finished])
    XCTAssertEqual(try store.latestTransaction(account: "alice", matching: TransactionMatch(originalID: renewal.id)), finished)

    try store.commit([.finishTransaction(finished)])
    XCTAssertEqual(try store.allTransactions(), [finished, other], "a replayed finish changes nothing")
    var refunded = finished
    refunded.revocationDate = LedgerFixtures.baseDate.addingTimeInterval(30)
    refunded.revocationReason = 1
    try store.commit([.putTransaction(refunded)])
    XCTAssertEqual(try store.allTransactions(), [refunded, other], "a put after the finish is written whole")
  }
}
