import Foundation
import StoreEngine
import XCTest

extension LedgerStoreConformance {
  /// `expectOwner`: a batch commits whole while the purchase is still `purchasing` and the session's,
  /// and not at all (``LedgerError/takenOver(path:transaction:owner:)``, naming the transaction and
  /// whoever holds it now) once another process claimed it, answered it, or it is gone.
  func ownerExpectationGuardsTheWholeBatch() throws {
    let store = try harness.makeStore()
    var sheet = LedgerFixtures.transaction(1)
    sheet.ownerSession = "host-a"
    try store.commit([.putTransaction(sheet)])
    var answered = sheet
    answered.state = .purchased
    answered.ownerSession = nil
    let alongside = LedgerFixtures.transaction(2, state: .purchased)
    try store.commit([.expectOwner(sheet.id, session: "host-a"), .putTransaction(answered), .putTransaction(alongside)])
    XCTAssertEqual(try store.allTransactions(), [answered, alongside], "the precondition held: the whole batch is written")

    var second = LedgerFixtures.transaction(3)
    second.ownerSession = "host-a"
    try store.commit([.putTransaction(second)])
    let claimed = try XCTUnwrap(try store.claimPurchase(second.id, from: "host-a", for: "host-b"))
    var late = second
    late.state = .failed
    late.ownerSession = nil
    let extra = LedgerFixtures.transaction(4, state: .purchased)
    let clock = LedgerFixtures.baseDate.addingTimeInterval(3600)
    assertTakenOver(
      try store.commit([.expectOwner(second.id, session: "host-a"), .putTransaction(late), .putTransaction(extra), .setClock(clock)]),
      id: second.id, owner: "host-b")
    XCTAssertEqual(try store.transactions([second.id, extra.id]), [claimed], "nothing of the refused batch is written")
    XCTAssertNil(try store.load().clock)

    // The new owner answers; an answer expecting it afterwards finds it no longer purchasing.
    var done = claimed
    done.state = .purchased
    done.ownerSession = nil
    try store.commit([.expectOwner(second.id, session: "host-b"), .putTransaction(done)])
    assertTakenOver(try store.commit([.expectOwner(second.id, session: "host-b"), .putTransaction(late)]), id: second.id, owner: nil)
    var finished = claimed
    finished.isFinished = true
    try store.commit([.putTransaction(finished)])
    assertTakenOver(try store.commit([.expectOwner(second.id, session: "host-b"), .putTransaction(late)]), id: second.id, owner: nil)
    XCTAssertEqual(try store.transactions([second.id]), [finished])

    // A purchase that is gone (deleted, or never stored) holds for nobody.
    let missing = PaymentTransaction.ID(99)
    assertTakenOver(
      try store.commit([.expectOwner(missing, session: "host-a"), .putTransaction(LedgerFixtures.transaction(99, state: .failed))]),
      id: missing, owner: nil)
    XCTAssertEqual(try store.transactions([missing]), [])
  }

  private func assertTakenOver(
    _ commit: @autoclosure () throws -> Void, id: PaymentTransaction.ID, owner: String?, line: UInt = #line
  ) {
    XCTAssertThrowsError(try commit(), line: line) { error in
      guard case .takenOver(_, let transaction, let holder)? = error as? LedgerError else {
        return XCTFail("expected takenOver, got \(error)", line: line)
      }
      XCTAssertEqual(transaction, id, line: line)
      XCTAssertEqual(holder, owner, line: line)
      XCTAssertTrue("\(error)".contains("transaction \(id)"), "the message names the transaction: \(error)", line: line)
    }
  }
}
