import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Which `purchasing` transactions a launch takes over when processes share a ledger: its own, ones
/// with no owner (older ledgers) and ones of dead sessions, never those of a live other session.
final class LaunchSessionTests: XCTestCase {
  typealias F = FixtureCatalog

  /// Liveness by a fixed set of live sessions; records every question.
  final class FakeLiveness: Sendable {
    private let aliveSet: Set<String>
    private let askedList = Locked<[String]>([])
    init(alive: Set<String>) { aliveSet = alive }
    var asked: [String] { askedList.withLock { $0 } }
    func isAlive(_ session: String) -> Bool {
      askedList.withLock { $0.append(session) }
      return aliveSet.contains(session)
    }
  }

  /// A process on `ledger` as session `session`, signed in as "tester", dialogs on.
  private func process(
    _ session: String, ledger: any LedgerStore, liveness: FakeLiveness = FakeLiveness(alive: [])
  ) throws -> (queue: PaymentQueue, observer: RecordingObserver) {
    let environment = StoreEnvironment(
      passwordHasher: InsecureTestHasher(), start: TestStore.start, firstTransactionID: 1_000_000_001, seed: 7,
      session: AppSession(id: session, isAlive: { liveness.isAlive($0) }))
    let queue = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: ledger, environment: environment)
    let observer = RecordingObserver()
    queue.add(observer)
    try queue.signIn("tester")
    try queue.set(.dialogs(true))
    observer.calls.removeAll()
    return (queue, observer)
  }

  /// Session "A" adds a payment and leaves its sheet up; returns the id.
  private func purchaseLeftPurchasing(by session: String, on ledger: any LedgerStore) throws -> PaymentTransaction.ID {
    let first = try process(session, ledger: ledger)
    let id = try first.queue.add(Payment(productID: F.removeAds))
    XCTAssertEqual(first.queue.prompt?.transactionID, id)
    return id
  }

  private func stored(_ id: PaymentTransaction.ID, in ledger: any LedgerStore) throws -> PaymentTransaction? {
    try ledger.load().transactions.first { $0.id == id }
  }

  func testNewPurchaseRecordsItsSessionUntilItIsAnswered() throws {
    let ledger = InMemoryLedgerStore()
    let a = try process("A", ledger: ledger)
    let id = try a.queue.add(Payment(productID: F.coins))
    XCTAssertEqual(try stored(id, in: ledger)?.ownerSession, "A")
    try a.queue.confirm()
    XCTAssertEqual(try stored(id, in: ledger)?.state, .purchased)
    XCTAssertNil(try stored(id, in: ledger)?.ownerSession, "an answered purchase belongs to no session")
  }

  func testLiveOtherSessionsPurchaseIsNeitherDeliveredNorShown() throws {
    let ledger = InMemoryLedgerStore()
    let theirs = try purchaseLeftPurchasing(by: "A", on: ledger)
    let liveness = FakeLiveness(alive: ["A"])
    let b = try process("B", ledger: ledger, liveness: liveness)
    try b.queue.launch()
    XCTAssertNil(b.queue.prompt)
    XCTAssertEqual(b.observer.calls, [], "B must not deliver A's purchase as its own")
    XCTAssertEqual(try stored(theirs, in: ledger)?.ownerSession, "A")
    XCTAssertEqual(liveness.asked, ["A"])
    // B's own purchase is not stuck behind A's sheet.
    let mine = try b.queue.add(Payment(productID: F.coins))
    XCTAssertEqual(b.queue.prompt?.transactionID, mine)
    try b.queue.confirm()
    XCTAssertNil(b.queue.prompt)
    XCTAssertEqual(try stored(theirs, in: ledger)?.state, .purchasing, "A's purchase is A's to answer")
  }

  func testDeadSessionsPurchaseIsTakenOverAndShown() throws {
    let ledger = InMemoryLedgerStore()
    let abandoned = try purchaseLeftPurchasing(by: "A", on: ledger)
    let b = try process("B", ledger: ledger, liveness: FakeLiveness(alive: []))
    try b.queue.launch()
    XCTAssertEqual(b.queue.prompt, .confirm(transaction: abandoned, product: F.removeAds, quantity: 1, alreadyOwned: false, price: TestStore.listPrice(F.removeAds, quantity: 1)))
    XCTAssertEqual(b.observer.calls, ["updated \(abandoned) \(F.removeAds) purchasing"])
    XCTAssertEqual(try stored(abandoned, in: ledger)?.ownerSession, "B", "the takeover is in the ledger")
    XCTAssertEqual(try b.queue.transaction(abandoned)?.ownerSession, "B")
    try b.queue.confirm()
    XCTAssertEqual(try stored(abandoned, in: ledger)?.state, .purchased)
  }

  func testPurchaseWithoutOwnerFromAnOlderLedgerIsTakenOver() throws {
    let old = PaymentTransaction(
      id: .init(1_000_000_001), account: "tester", productID: F.removeAds, productKind: .nonConsumable,
      purchaseDate: TestStore.start)
    XCTAssertNil(old.ownerSession)
    let ledger = InMemoryLedgerStore(LedgerSnapshot(transactions: [old]))
    let liveness = FakeLiveness(alive: [])
    let b = try process("B", ledger: ledger, liveness: liveness)
    try b.queue.launch()
    XCTAssertEqual(b.queue.prompt?.transactionID, old.id)
    XCTAssertEqual(try stored(old.id, in: ledger)?.ownerSession, "B")
    XCTAssertEqual(liveness.asked, [], "no owner: nobody to ask about")
  }

  func testOwnPurchaseComesBackOnRelaunchWithoutAskingLiveness() throws {
    let ledger = InMemoryLedgerStore()
    let liveness = FakeLiveness(alive: ["A"])
    let a = try process("A", ledger: ledger, liveness: liveness)
    let id = try a.queue.add(Payment(productID: F.coins))
    try a.queue.relaunch()
    XCTAssertEqual(a.queue.prompt?.transactionID, id)
    XCTAssertEqual(liveness.asked, [])
  }

  func testOnlyTheLiveOwnersPurchasesAreLeftAndEachOwnerIsAskedOnce() throws {
    let ledger = InMemoryLedgerStore()
    let a = try process("A", ledger: ledger)
    let a1 = try a.queue.add(Payment(productID: F.coins))
    let a2 = try a.queue.add(Payment(productID: F.removeAds))
    let dead = try purchaseLeftPurchasing(by: "D", on: ledger)
    let liveness = FakeLiveness(alive: ["A"])
    let b = try process("B", ledger: ledger, liveness: liveness)
    try b.queue.launch()
    XCTAssertEqual(b.queue.prompt?.transactionID, dead)
    XCTAssertEqual(b.observer.calls, ["updated \(dead) \(F.removeAds) purchasing"])
    XCTAssertEqual(try [a1, a2].map { try stored($0, in: ledger)?.ownerSession }, ["A", "A"])
    XCTAssertEqual(liveness.asked.sorted(), ["A", "D"])
  }

  func testPurchaseClaimedByAnotherProcessFirstIsLeftAlone() throws {
    let ledger = ClaimingLedger()
    let abandoned = try purchaseLeftPurchasing(by: "A", on: ledger)
    // Another process takes it over between B's load and B's claim.
    ledger.beforeClaim = { ledger in
      guard var other = try? ledger.load().transactions.first(where: { $0.id == abandoned }) else { return }
      other.ownerSession = "C"
      try? ledger.commit([.putTransaction(other)])
    }
    let b = try process("B", ledger: ledger, liveness: FakeLiveness(alive: []))
    try b.queue.launch()
    XCTAssertNil(b.queue.prompt)
    XCTAssertEqual(b.observer.calls, [])
    XCTAssertEqual(ledger.claims, ["\(abandoned) A→B"])
    XCTAssertEqual(try stored(abandoned, in: ledger)?.ownerSession, "C")
  }

  func testClaimingLedgerIsUsedForTheTakeover() throws {
    let ledger = ClaimingLedger()
    let abandoned = try purchaseLeftPurchasing(by: "A", on: ledger)
    let b = try process("B", ledger: ledger, liveness: FakeLiveness(alive: []))
    let commits = ledger.inner.commitCount
    try b.queue.launch()
    XCTAssertEqual(ledger.claims, ["\(abandoned) A→B"])
    XCTAssertEqual(ledger.inner.commitCount, commits + 1, "one claim, no other write")
    XCTAssertEqual(b.queue.prompt?.transactionID, abandoned)
  }

  func testFailedClaimIsReportedAndLeavesThePurchaseForTheNextLaunch() throws {
    let ledger = ClaimingLedger()
    let abandoned = try purchaseLeftPurchasing(by: "A", on: ledger)
    let b = try process("B", ledger: ledger, liveness: FakeLiveness(alive: []))
    let events = Locked<[StoreEvent]>([])
    let subscription = b.queue.bus.subscribe(StoreEvent.self) { event in events.withLock { $0.append(event) } }
    ledger.inner.failNextCommit = .busy(path: "/data/ledger.sqlite")
    try b.queue.launch()
    withExtendedLifetime(subscription) {}
    XCTAssertNil(b.queue.prompt)
    let seen = events.withLock { $0 }
    XCTAssertTrue(seen.contains(.misuse(.ledger(.busy(path: "/data/ledger.sqlite")))), "\(seen)")
    XCTAssertEqual(try stored(abandoned, in: ledger)?.ownerSession, "A")
    try b.queue.relaunch()
    XCTAssertEqual(b.queue.prompt?.transactionID, abandoned)
  }

  func testLedgerJSONWithoutOwnerDecodesAsNoOwner() throws {
    var transaction = PaymentTransaction(
      id: .init(7), account: "tester", productID: F.coins, productKind: .consumable, purchaseDate: TestStore.start)
    transaction.ownerSession = "A"
    let data = try JSONEncoder().encode(transaction)
    var object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    XCTAssertEqual(object["ownerSession"] as? String, "A")
    object["ownerSession"] = nil
    let old = try JSONDecoder().decode(PaymentTransaction.self, from: JSONSerialization.data(withJSONObject: object))
    XCTAssertNil(old.ownerSession)
    XCTAssertEqual(old.id, transaction.id)
  }
}

/// An in-memory ledger with a compare-and-set claim, and a hook to run another "process" just
/// before the claim reads the ledger.
final class ClaimingLedger: LedgerStore {
  let inner = InMemoryLedgerStore()
  var beforeClaim: ((InMemoryLedgerStore) -> Void)?
  private(set) var claims: [String] = []

  func load() throws(LedgerError) -> LedgerSnapshot { try inner.load() }
  func commit(_ changes: [LedgerChange]) throws(LedgerError) { try inner.commit(changes) }
  func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 {
    try inner.reserveTransactionIDs(count: count, atLeast: floor)
  }
  func history(account: String) throws(LedgerError) -> [PaymentTransaction] { try inner.history(account: account) }
  func allTransactions() throws(LedgerError) -> [PaymentTransaction] { try inner.allTransactions() }

  func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] { try inner.transactions(ids) }
  func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? {
    try inner.massExtension(productID: productID, requestID: requestID)
  }

  func claimPurchase(
    _ id: PaymentTransaction.ID, from expectedOwner: String?, for session: String
  ) throws(LedgerError) -> PaymentTransaction? {
    claims.append("\(id) \(expectedOwner ?? "nil")→\(session)")
    beforeClaim?(inner)
    guard var transaction = try inner.load().transactions.first(where: { $0.id == id }),
      transaction.state == .purchasing, !transaction.isFinished, transaction.ownerSession == expectedOwner
    else { return nil }
    transaction.ownerSession = session
    try inner.commit([.putTransaction(transaction)])
    return transaction
  }
}
