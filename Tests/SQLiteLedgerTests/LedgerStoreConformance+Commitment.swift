import StoreEngine
import XCTest

extension LedgerStoreConformance {
  /// A chain billed monthly with a 12-month commitment (DECISIONS §43) reads back with its plan and
  /// commitment.
  func aCommittedSubscriptionRoundTrips() throws {
    let store = try harness.makeStore()
    let record = LedgerFixtures.committedSubscription(7, account: "alice")
    var period = LedgerFixtures.fullyPopulated(id: 7)
    period.error = nil
    try store.commit([.putTransaction(period), .putSubscription(record)])
    let loaded = try store.load()
    XCTAssertEqual(loaded.subscriptions, [record])
    XCTAssertEqual(try store.allTransactions().first?.commitment, period.commitment)
    XCTAssertEqual(try store.allTransactions().first?.billingPlanType, "MONTHLY")
  }
}
