import StoreEngine
import StorefrontTestSupport
import XCTest

/// Time passing in real time (the TUI's tick, ``PaymentQueue/passTime(to:)``) is not written every
/// second (issue 35): the ledger gets the clock when something falls due, with this process's next
/// commit of anything, when it is ``PaymentQueue/clockSaveInterval`` behind, or on ``PaymentQueue/saveClock()``.
final class ClockSaveTests: XCTestCase {
  typealias F = FixtureCatalog

  func testSecondsStayInMemoryUntilAnotherCommitOrTheIntervalCarriesThem() throws {
    let store = try TestStore()
    store.queue.clockSaveInterval = 10
    try store.queue.advance(by: 1)
    let start = store.queue.now
    let commits = store.ledger.commitCount
    for second in 1...9 { try store.queue.passTime(to: start.addingTimeInterval(Double(second))) }
    XCTAssertEqual(store.ledger.commitCount, commits, "nine seconds, no write")
    XCTAssertEqual(store.queue.now, start.addingTimeInterval(9))
    XCTAssertEqual(try store.ledger.load().clock, start)
    XCTAssertTrue(store.queue.clockIsUnsaved)

    // The next commit of anything carries the clock.
    try store.buy(F.coins)
    XCTAssertEqual(try store.ledger.load().clock, start.addingTimeInterval(9))
    XCTAssertFalse(store.queue.clockIsUnsaved)

    // The interval (ten seconds here) ahead of the ledger: written.
    for second in 10...19 { try store.queue.passTime(to: start.addingTimeInterval(Double(second))) }
    XCTAssertEqual(store.ledger.commitCount, commits + 2)
    XCTAssertEqual(try store.ledger.load().clock, start.addingTimeInterval(19))

    // At quit.
    try store.queue.passTime(to: start.addingTimeInterval(20))
    try store.queue.saveClock()
    try store.queue.saveClock()
    XCTAssertEqual(store.ledger.commitCount, commits + 3, "a saved clock is not written again")
    XCTAssertEqual(try store.ledger.load().clock, start.addingTimeInterval(20))
  }

  func testWhatFallsDueIsCommittedWithItsClockAtOnce() throws {
    let store = try TestStore()
    let bought = try store.buy(F.monthly)
    let expiry = try XCTUnwrap(bought.expiresDate)
    try store.queue.advance(to: expiry.addingTimeInterval(-1))
    let commits = store.ledger.commitCount
    try store.queue.passTime(to: expiry.addingTimeInterval(1))
    XCTAssertEqual(store.ledger.commitCount, commits + 1)
    let ledger = try store.ledger.load()
    XCTAssertEqual(ledger.clock, expiry.addingTimeInterval(1))
    XCTAssertEqual(ledger.transactions.filter { $0.productID == F.monthly }.count, 2, "the renewal")
    XCTAssertFalse(store.queue.clockIsUnsaved)
  }
}
