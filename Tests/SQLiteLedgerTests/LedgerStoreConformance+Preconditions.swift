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

  /// `expectDeviceValue`: a compare-and-set on device values. The batch commits whole while every
  /// expected value (nil: absent) is as stored, and not at all
  /// (``LedgerError/deviceValueChanged(path:key:)``, naming the key) once another writer changed one.
  func deviceValueExpectationGuardsTheWholeBatch() throws {
    let store = try harness.makeStore()
    try store.commit([.setDeviceValue(key: "code", value: "0")])
    try store.commit([
      .expectDeviceValue(key: "code", value: "0"), .expectDeviceValue(key: "use", value: nil),
      .setDeviceValue(key: "code", value: "1"), .setDeviceValue(key: "use", value: "ann"),
    ])
    XCTAssertEqual(try store.load().deviceValues, ["code": "1", "use": "ann"], "the preconditions held: the batch is written")
    // A writer that read the values before that batch is refused, whichever value it got wrong.
    let late = LedgerFixtures.transaction(7, state: .purchased)
    for stale in [("code", "0"), ("use", nil)] as [(String, String?)] {
      XCTAssertThrowsError(
        try store.commit([
          .expectDeviceValue(key: stale.0, value: stale.1), .setDeviceValue(key: "code", value: "2"), .putTransaction(late),
        ])
      ) { error in
        guard case .deviceValueChanged(_, let key)? = error as? LedgerError else {
          return XCTFail("expected deviceValueChanged, got \(error)")
        }
        XCTAssertEqual(key, stale.0)
        XCTAssertTrue("\(error)".contains(stale.0), "the message names the value: \(error)")
      }
    }
    XCTAssertEqual(try store.load().deviceValues, ["code": "1", "use": "ann"], "nothing of a refused batch is written")
    XCTAssertEqual(try store.transactions([late.id]), [])
    // A removed value is absent again.
    try store.commit([.expectDeviceValue(key: "use", value: "ann"), .setDeviceValue(key: "use", value: nil)])
    try store.commit([.expectDeviceValue(key: "use", value: nil), .setDeviceValue(key: "code", value: "3")])
    XCTAssertEqual(try store.load().deviceValues, ["code": "3"])
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
