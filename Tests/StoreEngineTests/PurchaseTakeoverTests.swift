import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// A purchase whose sheet another process took over while this one looked dead (cut off from a
/// shared ledger): a late answer here writes nothing, announces nothing to the app, closes the sheet
/// and says so; the other process's purchase stands, granted once.
final class PurchaseTakeoverTests: XCTestCase {
  typealias F = FixtureCatalog

  /// A process on `ledger` as `session`, signed in as "tester", dialogs on; `dead` are the sessions
  /// it takes for gone.
  private func process(
    _ session: String, ledger: any LedgerStore, dead: Set<String> = []
  ) throws -> (queue: PaymentQueue, observer: RecordingObserver, events: Locked<[StoreEvent]>, token: Subscription) {
    let environment = StoreEnvironment(
      passwordHasher: InsecureTestHasher(), start: TestStore.start, firstTransactionID: 1_000_000_001, seed: 7,
      session: AppSession(id: session, isAlive: { !dead.contains($0) }))
    let queue = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: ledger, environment: environment)
    let observer = RecordingObserver()
    queue.add(observer)
    try queue.signIn("tester")
    try queue.set(.dialogs(true))
    observer.calls.removeAll()
    let events = Locked<[StoreEvent]>([])
    let token = queue.bus.subscribe(StoreEvent.self) { event in events.withLock { $0.append(event) } }
    return (queue, observer, events, token)
  }

  private func stored(_ id: PaymentTransaction.ID, in ledger: any LedgerStore) throws -> PaymentTransaction? {
    try ledger.transactions([id]).first
  }

  func testALateAnswerToAPurchaseCompletedElsewhereIsNotWrittenNorAnnounced() throws {
    let ledger = InMemoryLedgerStore()
    let a = try process("A", ledger: ledger)
    let id = try a.queue.add(Payment(productID: F.removeAds))
    XCTAssertEqual(a.queue.prompt?.transactionID, id)
    // B takes A for dead (A is cut off), takes the purchase over and buys it.
    let b = try process("B", ledger: ledger, dead: ["A"])
    try b.queue.launch()
    XCTAssertEqual(b.queue.prompt?.transactionID, id)
    try b.queue.confirm()
    let completedOnB = try XCTUnwrap(try stored(id, in: ledger))
    XCTAssertEqual(completedOnB.state, .purchased)

    a.observer.calls.removeAll()
    a.events.withLock { $0.removeAll() }
    let commits = ledger.commitCount
    XCTAssertThrowsError(try a.queue.confirm()) { error in
      XCTAssertEqual(error as? EngineError, .purchaseTakenOver(id, owner: nil))
      XCTAssertEqual(
        (error as? EngineError)?.description,
        "The purchase of transaction \(id) was completed on another device; nothing was charged here.")
    }
    XCTAssertEqual(try stored(id, in: ledger), completedOnB, "B's purchase stays as B completed it")
    XCTAssertEqual(ledger.commitCount, commits, "nothing was written")
    XCTAssertEqual(a.observer.calls, [], "A's app hears of no purchase")
    let events = a.events.withLock { $0 }
    // The bus says the purchase was completed elsewhere: an app on the StoreKit library hears it as
    // `Transaction.updates` would bring another device's purchase; the engine's observer hears nothing.
    XCTAssertEqual(
      events, [.promptDismissed, .transactionsAmended([completedOnB]), .transactionsChangedElsewhere([completedOnB])],
      "the sheet closes; the row refreshes")
    XCTAssertNil(a.queue.prompt)
    XCTAssertEqual(a.queue.machine.transaction(id), completedOnB, "A has the purchase as the ledger has it")
    XCTAssertEqual(ledger.everything.transactions.filter { $0.productID == F.removeAds }.count, 1, "one purchase, granted once")
  }

  func testACancelOfAPurchaseClaimedElsewhereNamesItsNewOwnerAndLeavesItToIt() throws {
    let ledger = InMemoryLedgerStore()
    let a = try process("A", ledger: ledger)
    let id = try a.queue.add(Payment(productID: F.removeAds))
    let b = try process("B", ledger: ledger, dead: ["A"])
    try b.queue.launch()
    let claimed = try XCTUnwrap(try stored(id, in: ledger))
    XCTAssertEqual(claimed.ownerSession, "B")

    a.observer.calls.removeAll()
    XCTAssertThrowsError(try a.queue.cancel()) { error in
      XCTAssertEqual(error as? EngineError, .purchaseTakenOver(id, owner: "B"))
      XCTAssertTrue("\(error)".contains("(session B); nothing was charged here"), "\(error)")
    }
    XCTAssertEqual(try stored(id, in: ledger), claimed, "A's cancel wrote nothing")
    XCTAssertEqual(a.observer.calls, [])
    XCTAssertNil(a.queue.prompt)
    // A second answer on A has no sheet to answer; B's sheet is B's.
    XCTAssertThrowsError(try a.queue.confirm()) { XCTAssertEqual($0 as? EngineError, .noPrompt) }
    try b.queue.confirm()
    XCTAssertEqual(try stored(id, in: ledger)?.state, .purchased)
  }

  func testAnAskToBuyDeferralOfATakenOverPurchaseIsNotWritten() throws {
    let ledger = InMemoryLedgerStore()
    let a = try process("A", ledger: ledger)
    try a.queue.set(.askToBuy(true))
    let id = try a.queue.add(Payment(productID: F.removeAds))
    let b = try process("B", ledger: ledger, dead: ["A"])
    try b.queue.launch()
    let claimed = try XCTUnwrap(try stored(id, in: ledger))
    XCTAssertThrowsError(try a.queue.confirm()) { XCTAssertEqual($0 as? EngineError, .purchaseTakenOver(id, owner: "B")) }
    XCTAssertEqual(try stored(id, in: ledger), claimed, "no deferral written over B's claim")
    XCTAssertTrue(ledger.everything.askToBuyRequests.isEmpty, "no Ask to Buy request either: the batch is all or nothing")
  }

  func testAnAnswerToOnesOwnPurchaseCarriesTheOwnerPreconditionAndCommits() throws {
    let ledger = InMemoryLedgerStore()
    let a = try process("A", ledger: ledger)
    let id = try a.queue.add(Payment(productID: F.removeAds))
    let step = try a.queue.perform(.confirm)
    XCTAssertEqual(step.changes.first, .expectOwner(id, session: "A"))
    XCTAssertEqual(try stored(id, in: ledger)?.state, .purchased)
    // Bought with dialogs off, the purchase is created and answered in one step: nothing to expect.
    try a.queue.set(.dialogs(false))
    let direct = try a.queue.perform(.buy(Payment(productID: F.coins)))
    XCTAssertFalse(direct.changes.contains { $0.ownerExpectation != nil })
  }
}
