import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Seeded random command sequences against the real shell and an in-memory ledger, with the
/// store's invariants checked after every step.
final class StoreMachinePropertyTests: XCTestCase {
  private typealias F = FixtureCatalog

  /// Keeps every batch the shell committed, to replay them from an empty ledger.
  private final class RecordingLedger: LedgerStore {
    let inner = InMemoryLedgerStore()
    private(set) var batches: [[LedgerChange]] = []
    func load() throws(LedgerError) -> LedgerSnapshot { try inner.load() }
    func commit(_ changes: [LedgerChange]) throws(LedgerError) {
      try inner.commit(changes)
      batches.append(changes)
    }
    func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 {
      try inner.reserveTransactionIDs(count: count, atLeast: floor)
    }
    func history(account: String) throws(LedgerError) -> [PaymentTransaction] { try inner.history(account: account) }
    func allTransactions() throws(LedgerError) -> [PaymentTransaction] { try inner.allTransactions() }
    func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] { try inner.transactions(ids) }
    func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? {
      try inner.massExtension(productID: productID, requestID: requestID)
    }
  }

  private static let products = [F.removeAds, F.coins, F.seasonPass, F.monthly, F.yearly]

  private func randomCommand(_ queue: PaymentQueue, _ rng: inout SplitMix64) throws -> StoreCommand {
    let history = try queue.history()
    func pick() -> PaymentTransaction.ID? {
      history.isEmpty ? nil : history[Int(rng.next() % UInt64(history.count))].id
    }
    let choice = rng.next() % 100
    switch choice {
    case 0..<25: return .buy(Payment(productID: Self.products[Int(rng.next() % 5)], quantity: rng.next() % 8 == 0 ? 2 : 1))
    case 25..<32: return .confirm
    case 32..<36: return .cancel
    case 36..<48:
      let unfinished = queue.unfinishedTransactions
      guard !unfinished.isEmpty else { return .restore }
      return .finish(unfinished[Int(rng.next() % UInt64(unfinished.count))].id)
    case 48..<51: return .restore
    case 51..<55: return pick().map { .approve($0, after: rng.next() % 2 == 0 ? nil : 3600) } ?? .restore
    case 55..<57: return pick().map { .decline($0, after: nil) } ?? .restore
    case 57..<60: return pick().map { .resolve($0) } ?? .restore
    case 60..<62: return pick().map { .refund($0, reason: 0) } ?? .restore
    case 62..<72:
      let changes: [ControlChange] = [
        .askToBuy(rng.next() % 4 == 0), .interruptedPurchases(rng.next() % 5 == 0), .dialogs(rng.next() % 2 == 0),
        .billingRetry(rng.next() % 3 == 0), .gracePeriod(rng.next() % 2 == 0), .timeRate(rng.next() % 2 == 0 ? 0 : 10),
        .failure(.purchase, rng.next() % 6 == 0 ? SimulatedFailure(error: .unknown, chance: 0.5) : nil),
      ]
      return .setControl(changes[Int(rng.next() % UInt64(changes.count))])
    case 72..<82: return .advance(to: queue.now.addingTimeInterval(Double(rng.next() % 72) * 3600 + 60))
    case 82..<85: return .relaunch
    case 85..<88: return .signIn(rng.next() % 2 == 0 ? "tester" : "other", password: nil)
    case 88..<91: return pick().map { .setAutoRenew($0, rng.next() % 2 == 0) } ?? .restore
    case 91..<93: return pick().map { .expireSubscription($0) } ?? .restore
    case 93..<95: return pick().map { .renewSubscription($0) } ?? .restore
    case 95..<97: return pick().map { .priceIncrease($0, [.request, .accept, .decline][Int(rng.next() % 3)]) } ?? .restore
    case 97: return .clearHistory(account: nil)
    default: return pick().map { .resolveBillingIssue($0) } ?? .signOut
    }
  }

  func testRandomCommandSequencesKeepTheStoresInvariants() throws {
    for seed in UInt64(1)...5 {
      try run(seed: seed, steps: 400)
    }
  }

  private func run(seed: UInt64, steps: Int) throws {
    let ledger = RecordingLedger()
    var environment = TestStore.environment
    environment.seed = seed
    let queue = try PaymentQueue(catalog: F.make(), ledger: ledger, environment: environment)
    let observer = RecordingObserver()
    queue.add(observer)
    try queue.signIn("tester")
    var rng = SplitMix64(seed: seed &* 7919)
    var createdIDs: [PaymentTransaction.ID] = []
    for index in 0..<steps {
      let command = try randomCommand(queue, &rng)
      let label = "seed \(seed) step \(index) \(command)"
      let before = queue.machine
      let step: StoreStep
      do {
        step = try queue.perform(command)
      } catch .ledger(let error) {
        return XCTFail("\(label): the ledger failed: \(error)")
      } catch {
        // Refused: nothing may have changed.
        XCTAssertTrue(queue.machine == before, "\(label): a refused command changed the machine")
        continue
      }
      if let created = step.createdTransaction { createdIDs.append(created) }
      try check(step, command: command, ledger: ledger, queue: queue, label: label)
      if index % 50 == 49 || index == steps - 1 { try checkReplay(ledger, queue: queue, label: label) }
    }
    XCTAssertEqual(Set(createdIDs).count, createdIDs.count, "seed \(seed): an id was handed out twice")
  }

  private func check(_ step: StoreStep, command: StoreCommand, ledger: RecordingLedger, queue: PaymentQueue, label: String) throws {
    let all = try ledger.allTransactions()
    // Ids are unique in the ledger.
    XCTAssertEqual(Set(all.map(\.id)).count, all.count, "\(label): duplicate ids")
    // Nothing is granted twice: a non-consumable is charged once per account until refunded.
    for account in Set(all.map(\.account)) {
      let charged = all.filter {
        $0.account == account && $0.productKind == .nonConsumable && $0.state == .purchased && $0.price > 0 && $0.revocationDate == nil
      }
      XCTAssertEqual(Set(charged.map(\.productID)).count, charged.count, "\(label): \(account) was charged twice for a non-consumable")
    }
    // Every transaction an event announces is durable, exactly as announced.
    let stored = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    let cleared = step.events.contains { if case .historyCleared = $0 { true } else { false } }
    var announced: [PaymentTransaction] = []
    for event in step.events {
      switch event {
      case .transactionsUpdated(let list), .transactionsRemoved(let list), .transactionsAmended(let list): announced += list
      case .transactionRevoked(let transaction): announced.append(transaction)
      default: break
      }
    }
    if !cleared {
      for transaction in announced {
        // A later change in the same step (finished, signed again) may have superseded it.
        XCTAssertNotNil(stored[transaction.id], "\(label): announced transaction \(transaction.id) is not in the ledger")
      }
    }
    // A step's events describe only its changes (a launch redelivers stored transactions as they are;
    // clearing a history removes the account's unfinished ones from the queue).
    let put = Set(step.changes.compactMap(\.storedTransaction).map(\.id))
    for transaction in announced where !put.contains(transaction.id) && !cleared {
      XCTAssertEqual(command, .relaunch, "\(label): transaction \(transaction.id) was announced but not changed")
      XCTAssertEqual(stored[transaction.id], transaction, "\(label): a redelivered transaction differs from the ledger's")
    }
    // Unfinished transactions are redelivered at a relaunch.
    if command == .relaunch, let account = queue.currentAccount {
      let unfinished = Set(all.filter { $0.account == account && !$0.isFinished }.map(\.id))
      let delivered = Set(announced.map(\.id))
      XCTAssertTrue(unfinished.isSubset(of: delivered), "\(label): unfinished \(unfinished.subtracting(delivered)) not redelivered")
    }
    // Memory never runs ahead of the ledger.
    XCTAssertEqual(queue.subscriptions(), try ledger.load().subscriptions.filter { $0.account == queue.currentAccount }, "\(label)")
  }

  /// Replaying every committed batch on an empty ledger gives the same ledger, and a machine opened
  /// on it holds what the live machine holds of each transaction.
  private func checkReplay(_ ledger: RecordingLedger, queue: PaymentQueue, label: String) throws {
    let replayed = InMemoryLedgerStore()
    for batch in ledger.batches { try replayed.commit(batch) }
    XCTAssertEqual(replayed.everything, ledger.inner.everything, "\(label): replay differs")
    let fresh = try PaymentQueue(catalog: F.make(), ledger: replayed, environment: TestStore.environment)
    XCTAssertEqual(fresh.currentAccount, queue.currentAccount, label)
    XCTAssertEqual(fresh.subscriptions(), queue.subscriptions(), label)
    XCTAssertEqual(fresh.unfinishedTransactions, queue.unfinishedTransactions, "\(label): unfinished differ after replay")
    for transaction in try replayed.allTransactions() {
      if let live = queue.machine.transaction(transaction.id) { XCTAssertEqual(live, transaction, "\(label): \(transaction.id)") }
    }
  }
}
