import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

private typealias F = FixtureCatalog

/// Ask to Buy as Apple does it: rows B12–B15 of `Docs/Fidelity.md`.
final class AskToBuyFidelityTests: XCTestCase {
  private func askingStore(_ ledger: InMemoryLedgerStore = InMemoryLedgerStore()) throws -> TestStore {
    let store = try TestStore(ledger: ledger)
    try store.queue.set(.askToBuy(true))
    store.observer.calls.removeAll()
    return store
  }

  func testB12DeclineSendsTheAppNoCallbackAndALaterApprovalStillCompletes() throws {
    let store = try askingStore()
    let deferred = try store.buy(F.removeAds)
    XCTAssertEqual(store.observer.calls, ["updated \(deferred.id) \(F.removeAds) purchasing", "updated \(deferred.id) \(F.removeAds) deferred"])
    store.observer.calls.removeAll()
    let step = try store.queue.perform(.decline(deferred.id, after: nil))
    XCTAssertEqual(store.observer.calls, [], "a decline must reach the app as nothing at all")
    XCTAssertTrue(step.events.contains { if case .askToBuyAnswered(_, approved: false) = $0 { true } else { false } })
    XCTAssertEqual(try store.queue.transaction(deferred.id)?.state, .deferred)
    XCTAssertFalse(try store.queue.entitlements().owns(F.removeAds))
    try store.queue.approve(deferred.id)
    XCTAssertEqual(store.observer.calls, ["updated \(deferred.id) \(F.removeAds) purchased"])
    XCTAssertTrue(try store.queue.entitlements().owns(F.removeAds))
  }

  func testB13ApprovalAfterTheAppFinishedTheDeferredTransactionArrivesAsANewUnfinishedOne() throws {
    let store = try askingStore()
    let deferred = try store.buy(F.coins)
    try store.queue.finish(deferred.id)
    XCTAssertEqual(store.queue.unfinishedTransactions.count, 0)
    let step = try store.queue.perform(.approve(deferred.id, after: nil))
    let purchased = try XCTUnwrap(store.queue.unfinishedTransactions.first)
    XCTAssertNotEqual(purchased.id, deferred.id)
    XCTAssertEqual(purchased.state, .purchased)
    XCTAssertEqual(purchased.productID, F.coins)
    XCTAssertFalse(purchased.isFinished)
    XCTAssertEqual(store.queue.unfinishedTransactions.count, 1)
    XCTAssertTrue(step.events.contains(.transactionsUpdated([purchased])))
    // It is delivered again at the next launch until the app finishes it.
    store.observer.calls.removeAll()
    try store.queue.relaunch()
    XCTAssertEqual(store.observer.calls, ["updated \(purchased.id) \(F.coins) purchased"])
    try store.queue.finish(purchased.id)
    XCTAssertEqual(store.queue.unfinishedTransactions.count, 0)
  }

  func testB14DuplicateRequestsForOneProductAreConsolidatedIntoOnePurchase() throws {
    let store = try askingStore()
    let first = try store.buy(F.coins)
    let second = try store.buy(F.coins)
    XCTAssertEqual(try store.queue.transaction(second.id)?.state, .deferred)
    XCTAssertEqual(store.queue.machine.askToBuyRequests().count, 1)
    XCTAssertEqual(store.queue.machine.askToBuyRequests().first?.transactionIDs, [first.id, second.id])
    store.observer.calls.removeAll()
    try store.queue.approve(second.id)
    XCTAssertEqual(store.observer.calls, ["updated \(first.id) \(F.coins) purchased", "removed \(second.id)"])
    let purchases = try store.queue.history().filter { $0.state == .purchased }
    XCTAssertEqual(purchases.count, 1, "one approval completes one purchase")
    XCTAssertThrowsError(try store.queue.approve(first.id)) { XCTAssertEqual($0 as? EngineError, .notDeferred(first.id)) }
    // The consolidated duplicate's request is answered: approving it again buys nothing more.
    store.observer.calls.removeAll()
    XCTAssertThrowsError(try store.queue.approve(second.id)) { XCTAssertEqual($0 as? EngineError, .notDeferred(second.id)) }
    XCTAssertThrowsError(try store.queue.decline(second.id)) { XCTAssertEqual($0 as? EngineError, .notDeferred(second.id)) }
    XCTAssertEqual(store.observer.calls, [])
    XCTAssertEqual(try store.queue.history().filter { $0.state == .purchased }.count, 1, "no second, charged purchase")
    // A request for another product is its own.
    _ = try store.buy(F.removeAds)
    XCTAssertEqual(store.queue.machine.askToBuyRequests().count, 1)
  }

  func testB15AScheduledAnswerSurvivesARelaunch() throws {
    let store = try askingStore()
    let deferred = try store.buy(F.removeAds)
    try store.queue.schedule(approve: true, deferred.id, after: 3600)
    try store.queue.relaunch()
    try store.queue.advance(by: 1800)
    XCTAssertEqual(try store.queue.transaction(deferred.id)?.state, .deferred)
    try store.queue.advance(by: 1800)
    XCTAssertEqual(try store.queue.transaction(deferred.id)?.state, .purchased)
  }

  func testB15AScheduledAnswerReachesAnotherProcessOnTheSameLedger() throws {
    let ledger = InMemoryLedgerStore()
    let child = try askingStore(ledger)
    let deferred = try child.buy(F.removeAds)
    try child.queue.schedule(approve: true, deferred.id, after: 3600)
    // Another process (a second queue on the same ledger) moves the clock past the answer.
    let other = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: ledger, environment: TestStore.environment)
    try other.advance(by: 7200)
    XCTAssertEqual(try other.transaction(deferred.id)?.state, .purchased)
    XCTAssertEqual(try ledger.transactions([deferred.id]).first?.state, .purchased)
  }

  func testB15AScheduledDeclineIsCarriedOutSilently() throws {
    let store = try askingStore()
    let deferred = try store.buy(F.removeAds)
    try store.queue.schedule(approve: false, deferred.id, after: 60)
    store.observer.calls.removeAll()
    try store.queue.advance(by: 120)
    XCTAssertEqual(store.observer.calls, [])
    XCTAssertEqual(try store.queue.transaction(deferred.id)?.state, .deferred)
    XCTAssertEqual(store.queue.machine.askToBuyRequests().first?.status, .declined)
  }

  func testClearingHistoryDropsTheAccountsRequests() throws {
    let ledger = InMemoryLedgerStore()
    let store = try askingStore(ledger)
    let deferred = try store.buy(F.removeAds)
    try store.queue.schedule(approve: true, deferred.id, after: 60)
    try store.queue.clearPurchaseHistory()
    XCTAssertEqual(ledger.everything.askToBuyRequests, [])
    try store.queue.advance(by: 120)
    XCTAssertEqual(try store.queue.history(), [])
  }
}
