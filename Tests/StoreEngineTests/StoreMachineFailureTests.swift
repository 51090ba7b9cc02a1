import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// A commit failure injected at every command kind leaves the machine exactly as it was, writes
/// nothing and tells nobody. The upgrade and resolve paths used to commit twice; a failed second
/// commit left an interrupted purchase that could no longer be resolved.
final class StoreMachineFailureTests: XCTestCase {
  private typealias F = FixtureCatalog

  /// Each case: how to get the store ready, then the command whose commit fails.
  private struct Case {
    var name: String
    var prepare: (TestStore) throws -> Void = { _ in }
    var command: (TestStore) throws -> StoreCommand
  }

  private func newest(_ store: TestStore, _ product: Product.ID) throws -> PaymentTransaction.ID {
    guard let id = try store.queue.history().last(where: { $0.productID == product })?.id else {
      throw XCTSkip("no transaction of \(product)")
    }
    return id
  }

  private var cases: [Case] {
    [
      Case(name: "signIn (new account)") { _ in .signIn("someone", password: "pw") },
      Case(name: "signOut") { _ in .signOut },
      Case(name: "buy") { _ in .buy(Payment(productID: F.removeAds)) },
      Case(name: "storePayment") { _ in .storePayment(F.coins) },
      Case(name: "confirm", prepare: { store in
        try store.queue.set(.dialogs(true))
        try store.queue.add(Payment(productID: F.removeAds))
      }) { _ in .confirm },
      Case(name: "cancel", prepare: { store in
        try store.queue.set(.dialogs(true))
        try store.queue.add(Payment(productID: F.removeAds))
      }) { _ in .cancel },
      Case(name: "finish", prepare: { store in try store.buy(F.coins) }) { store in .finish(try self.newest(store, F.coins)) },
      Case(name: "restore", prepare: { store in try store.buy(F.removeAds) }) { _ in .restore },
      Case(name: "approve", prepare: { store in
        try store.queue.set(.askToBuy(true))
        try store.buy(F.removeAds)
      }) { store in .approve(try self.newest(store, F.removeAds), after: nil) },
      Case(name: "decline", prepare: { store in
        try store.queue.set(.askToBuy(true))
        try store.buy(F.removeAds)
      }) { store in .decline(try self.newest(store, F.removeAds), after: nil) },
      Case(name: "resolve", prepare: { store in
        try store.queue.set(.interruptedPurchases(true))
        try store.buy(F.removeAds)
        try store.queue.set(.interruptedPurchases(false))
      }) { store in .resolve(try self.newest(store, F.removeAds)) },
      Case(name: "refund", prepare: { store in try store.buy(F.removeAds) }) { store in .refund(try self.newest(store, F.removeAds), reason: 1) },
      Case(name: "advance (renewals)", prepare: { store in try store.buy(F.monthly) }) { store in
        .advance(to: store.queue.now.addingTimeInterval(90 * 86_400))
      },
      // A purchase left `purchasing` completes at the relaunch (dialogs are off by then).
      Case(name: "relaunch", prepare: { store in
        try store.queue.set(.dialogs(true))
        try store.queue.add(Payment(productID: F.removeAds))
        try store.queue.set(.dialogs(false))
      }) { _ in .relaunch },
      Case(name: "clearHistory", prepare: { store in try store.buy(F.monthly) }) { _ in .clearHistory(account: nil) },
      Case(name: "setAutoRenew", prepare: { store in try store.buy(F.monthly) }) { store in .setAutoRenew(try self.newest(store, F.monthly), false) },
      Case(name: "expireSubscription", prepare: { store in try store.buy(F.monthly) }) { store in .expireSubscription(try self.newest(store, F.monthly)) },
      Case(name: "renewSubscription", prepare: { store in try store.buy(F.monthly) }) { store in .renewSubscription(try self.newest(store, F.monthly)) },
      Case(name: "resolveBillingIssue", prepare: { store in
        try store.queue.set(.billingRetry(true))
        try store.buy(F.monthly)
        try store.queue.advance(by: 40 * 86_400)
      }) { store in .resolveBillingIssue(try self.newest(store, F.monthly)) },
      Case(name: "priceIncrease", prepare: { store in try store.buy(F.monthly) }) { store in .priceIncrease(try self.newest(store, F.monthly), .request) },
      Case(name: "upgrade (buy the higher level)", prepare: { store in try store.buy(F.monthly) }) { _ in .buy(Payment(productID: F.yearly)) },
    ]
  }

  func testAFailedCommitChangesNothingAndTellsNobodyForEveryCommandKind() throws {
    for testCase in cases {
      let store = try TestStore()
      try testCase.prepare(store)
      let command = try testCase.command(store)
      let machine = store.queue.machine
      let stored = store.ledger.everything
      let calls = store.observer.calls
      let heard = Locked<[StoreEvent]>([])
      let subscription = store.queue.bus.subscribe(StoreEvent.self) { event in heard.withLock { $0.append(event) } }
      store.ledger.failNextCommit = .writeFailed(path: "/memory", reason: "injected")
      XCTAssertThrowsError(try store.queue.perform(command), testCase.name) { error in
        XCTAssertEqual(error as? EngineError, .ledger(.writeFailed(path: "/memory", reason: "injected")), testCase.name)
      }
      subscription.cancel()
      XCTAssertTrue(store.queue.machine == machine, "\(testCase.name): the machine changed")
      XCTAssertEqual(store.ledger.everything, stored, "\(testCase.name): the ledger changed")
      XCTAssertEqual(store.observer.calls, calls, "\(testCase.name): an observer was told")
      XCTAssertEqual(heard.withLock { $0 }.filter { if case .shouldAddStorePayment = $0 { false } else { true } }, [], "\(testCase.name): the bus was told")
      // The same command works once the ledger does (resolve can still be resolved, and so on).
      XCTAssertNoThrow(try store.queue.perform(command), testCase.name)
    }
  }

  func testResolveAndUpgradeAreOneCommitEach() throws {
    let store = try TestStore()
    try store.queue.set(.interruptedPurchases(true))
    let interrupted = try store.buy(F.removeAds).id
    try store.queue.set(.interruptedPurchases(false))
    var commits = store.ledger.commitCount
    try store.queue.resolve(interrupted)
    XCTAssertEqual(store.ledger.commitCount, commits + 1)
    let monthly = try store.buy(F.monthly).id
    commits = store.ledger.commitCount
    let step = try store.queue.perform(.buy(Payment(productID: F.yearly)))
    XCTAssertEqual(store.ledger.commitCount, commits + 1)
    // The upgraded old period is in the same step's events, as a change without a callback.
    let amended = step.events.compactMap { if case .transactionsAmended(let list) = $0 { list } else { nil } }.flatMap { $0 }
    XCTAssertEqual(amended.map(\.id), [monthly])
    XCTAssertEqual(amended.first?.isUpgraded, true)
  }
}
