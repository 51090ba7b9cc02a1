import StoreEngine
import XCTest

/// A ledger store under test, and how to make a commit fail partway through a batch.
struct LedgerStoreHarness {
  /// A new, empty store.
  var makeStore: () throws -> any LedgerStore
  /// Makes commits that put the transaction `id` fail (until the store is replaced).
  var injectFailure: (any LedgerStore, PaymentTransaction.ID) throws -> Void
}

/// The behaviour every ``LedgerStore`` must share, run against ``InMemoryLedgerStore`` and
/// ``SQLiteLedgerStore`` by ``InMemoryLedgerConformanceTests`` and ``SQLiteLedgerConformanceTests``.
struct LedgerStoreConformance {
  let harness: LedgerStoreHarness

  func emptyStoreLoadsNothing() throws {
    let store = try harness.makeStore()
    XCTAssertEqual(try store.load(), LedgerSnapshot())
    try store.commit([])
    XCTAssertEqual(try store.load(), LedgerSnapshot())
  }

  func transactionsKeepFirstInsertionOrderAcrossUpserts() throws {
    let store = try harness.makeStore()
    let first = LedgerFixtures.transaction(30)
    let second = LedgerFixtures.transaction(10)
    let third = LedgerFixtures.transaction(20)
    try store.commit([.putTransaction(first), .putTransaction(second)])
    try store.commit([.putTransaction(third)])
    var purchased = first
    purchased.state = .purchased
    try store.commit([.putTransaction(purchased)])
    XCTAssertEqual(try store.allTransactions(), [purchased, second, third])
  }

  func upsertReplacesTheWholeValue() throws {
    let store = try harness.makeStore()
    let original = LedgerFixtures.transaction(1)
    let replacement = LedgerFixtures.fullyPopulated(id: 1)
    try store.commit([.putTransaction(original)])
    try store.commit([.putTransaction(replacement)])
    XCTAssertEqual(try store.allTransactions(), [replacement])
    try store.commit([.putTransaction(original)])
    XCTAssertEqual(try store.allTransactions(), [original])
  }

  /// A launch reads the working set: unfinished transactions and each non-consumable chain's first
  /// and current period, never the finished history (so a launch costs the same at any size).
  func loadReadsTheWorkingSetOnly() throws {
    let store = try harness.makeStore()
    var changes: [LedgerChange] = []
    for id in UInt64(1)...20 { changes.append(.putTransaction(LedgerFixtures.transaction(id, state: .purchased, finished: true))) }
    var first = LedgerFixtures.transaction(100, state: .purchased, finished: true)
    first.productKind = .autoRenewableSubscription
    first.expiresDate = LedgerFixtures.baseDate.addingTimeInterval(60)
    changes.append(.putTransaction(first))
    for id in UInt64(101)...110 {
      var renewal = first
      renewal.id = PaymentTransaction.ID(id)
      renewal.expiresDate = LedgerFixtures.baseDate.addingTimeInterval(60 * Double(id - 99))
      changes.append(.putTransaction(renewal))
    }
    changes.append(.putTransaction(LedgerFixtures.transaction(200)))
    try store.commit(changes)
    XCTAssertEqual(try store.load().transactions.map(\.id.rawValue), [100, 110, 200])
    XCTAssertEqual(try store.allTransactions().count, 32)
    // While its record says it is active the chain is loaded; once it ended, only the history has it.
    var record = LedgerFixtures.subscription(100, account: first.account)
    try store.commit([.putSubscription(record)])
    XCTAssertEqual(try store.load().transactions.map(\.id.rawValue), [100, 110, 200])
    record.status = .expired
    try store.commit([.putSubscription(record)])
    XCTAssertEqual(try store.load().transactions.map(\.id.rawValue), [200])
    XCTAssertEqual(try store.history(account: first.account).count, 32)
  }

  func replayingABatchChangesNothing() throws {
    let store = try harness.makeStore()
    let batch: [LedgerChange] = [
      .putAccount(LedgerFixtures.alice), .putAccount(LedgerFixtures.bob),
      .putTransaction(LedgerFixtures.transaction(1)),
      .putTransaction(LedgerFixtures.transaction(2, state: .purchased, finished: true)),
      .setCurrentAccount("alice"),
    ]
    try store.commit(batch)
    let once = try store.load()
    try store.commit(batch)
    try store.commit(batch)
    // The change feed may move (an account put again moves to the end), the content does not.
    var again = try store.load()
    again.position = once.position
    XCTAssertEqual(again, once)
    XCTAssertEqual(try store.allTransactions().map(\.id.rawValue), [1, 2])
    // The launch snapshot leaves out a finished consumable: nothing a launch decides depends on it.
    XCTAssertEqual(once.transactions.map(\.id.rawValue), [1])
    XCTAssertEqual(once.accounts, [LedgerFixtures.alice, LedgerFixtures.bob])
  }

  func clearHistoryRemovesOnlyThatAccount() throws {
    let store = try harness.makeStore()
    try store.commit([
      .putTransaction(LedgerFixtures.transaction(1, account: "alice")),
      .putTransaction(LedgerFixtures.transaction(2, account: "bob")),
      .putTransaction(LedgerFixtures.transaction(3, account: "alice")),
      .putAccount(LedgerFixtures.alice), .setCurrentAccount("alice"),
    ])
    try store.commit([.clearHistory(account: "alice")])
    var snapshot = try store.load()
    XCTAssertEqual(snapshot.transactions.map(\.id.rawValue), [2])
    XCTAssertEqual(snapshot.accounts, [LedgerFixtures.alice], "clearing history keeps the account")
    XCTAssertEqual(snapshot.currentAccount, "alice")
    try store.commit([.clearHistory(account: "nobody")])
    XCTAssertEqual(try store.load(), snapshot)
    // A transaction put again after clearing comes after the ones that stayed.
    try store.commit([.putTransaction(LedgerFixtures.transaction(1, account: "alice"))])
    snapshot = try store.load()
    XCTAssertEqual(snapshot.transactions.map(\.id.rawValue), [2, 1])
  }

  func changesApplyInBatchOrder() throws {
    let store = try harness.makeStore()
    try store.commit([
      .putTransaction(LedgerFixtures.transaction(1, account: "alice")),
      .clearHistory(account: "alice"),
      .putTransaction(LedgerFixtures.transaction(2, account: "alice")),
      .setCurrentAccount("first"), .setCurrentAccount("second"),
    ])
    let snapshot = try store.load()
    XCTAssertEqual(snapshot.transactions.map(\.id.rawValue), [2])
    XCTAssertEqual(snapshot.currentAccount, "second")
  }

  /// The typed values (signed-in account, clock, subscription records) are overwritten, removed
  /// and read back exactly; an empty account name means signed out.
  func valuesAreOverwrittenByKey() throws {
    let store = try harness.makeStore()
    let clock = Date(timeIntervalSince1970: 1_767_225_600.25)
    var record = LedgerFixtures.subscription(7, account: "광고 제거 🎮")
    try store.commit([.setCurrentAccount("bob"), .setClock(clock), .putSubscription(record)])
    record.autoRenew = false
    try store.commit([.putSubscription(record), .putSubscription(LedgerFixtures.subscription(8, account: "bob"))])
    try store.commit([.removeSubscription(PaymentTransaction.ID(8))])
    var snapshot = try store.load()
    XCTAssertEqual(snapshot.currentAccount, "bob")
    XCTAssertEqual(snapshot.clock, clock)
    XCTAssertEqual(snapshot.subscriptions, [record])
    try store.commit([.setCurrentAccount(nil)])
    snapshot = try store.load()
    XCTAssertNil(snapshot.currentAccount)
  }

  func accountsAreUpsertedByNameInOrderOfLatestPut() throws {
    let store = try harness.makeStore()
    var alice = LedgerFixtures.alice
    try store.commit([.putAccount(alice), .putAccount(LedgerFixtures.bob)])
    alice.storefront = "JPN"
    try store.commit([.putAccount(alice)])
    XCTAssertEqual(try store.load().accounts, [LedgerFixtures.bob, alice])
  }

  func extremeIdentifiersAndEveryFieldRoundTrip() throws {
    let store = try harness.makeStore()
    let transactions = [
      LedgerFixtures.transaction(UInt64.max), LedgerFixtures.transaction(0),
      LedgerFixtures.transaction(UInt64(Int64.max) + 1), LedgerFixtures.fullyPopulated(),
    ]
    try store.commit(transactions.map { .putTransaction($0) })
    XCTAssertEqual(try store.allTransactions(), transactions)
  }

  func failedBatchLeavesNothing() throws {
    let store = try harness.makeStore()
    let kept = LedgerFixtures.transaction(1, account: "bob")
    try store.commit([
      .putTransaction(kept), .putAccount(LedgerFixtures.bob), .setCurrentAccount("old"),
    ])
    let before = try store.load()
    let failing = LedgerFixtures.transaction(666)
    try harness.injectFailure(store, failing.id)
    var finished = kept
    finished.isFinished = true
    let batch: [LedgerChange] = [
      .setCurrentAccount("new"), .putAccount(LedgerFixtures.alice),
      .putTransaction(LedgerFixtures.transaction(2)), .putTransaction(finished),
      .clearHistory(account: "bob"), .putTransaction(failing),
      .putTransaction(LedgerFixtures.transaction(3)),
    ]
    XCTAssertThrowsError(try store.commit(batch)) { error in
      XCTAssertTrue(error is LedgerError, "\(error)")
    }
    XCTAssertEqual(try store.load(), before, "a failed commit must not write any part of its batch")
    // The store still works afterwards.
    try store.commit([.setCurrentAccount("after")])
    XCTAssertEqual(try store.load().currentAccount, "after")
  }

  /// Ask to Buy requests are durable (B15): open ones load, an approved one does not, clearing an
  /// account's history removes its requests.
  func askToBuyRequestsAreStoredAndLoadedWhileOpen() throws {
    let store = try harness.makeStore()
    let pending = AskToBuyRequest(
      id: PaymentTransaction.ID(1), account: "alice", productID: "com.example.gems", quantity: 2,
      applicationUsername: "u", transactionIDs: [PaymentTransaction.ID(1), PaymentTransaction.ID(3)],
      requestedDate: LedgerFixtures.baseDate,
      scheduledAnswer: .init(approve: true, date: LedgerFixtures.baseDate.addingTimeInterval(3600)))
    var approved = AskToBuyRequest(
      id: PaymentTransaction.ID(2), account: "bob", productID: "com.example.gems", transactionIDs: [PaymentTransaction.ID(2)],
      requestedDate: LedgerFixtures.baseDate)
    try store.commit([.putAskToBuyRequest(pending), .putAskToBuyRequest(approved)])
    XCTAssertEqual(try store.load().askToBuyRequests, [pending, approved])
    approved.status = .approved
    approved.purchasedTransactionID = PaymentTransaction.ID(2)
    try store.commit([.putAskToBuyRequest(approved)])
    XCTAssertEqual(try store.load().askToBuyRequests, [pending])
    try store.commit([.clearHistory(account: "alice")])
    XCTAssertEqual(try store.load().askToBuyRequests, [])
  }

  /// Mass renewal-date extensions are kept by product and request id; a later put replaces one.
  func massExtensionsAreKeptByProductAndRequest() throws {
    let store = try harness.makeStore()
    var request = MassExtension(productID: "com.example.monthly", requestID: "r1", days: 5, reasonCode: 0)
    try store.commit([.putMassExtension(request)])
    XCTAssertEqual(try store.massExtension(productID: "com.example.monthly", requestID: "r1"), request)
    request.completeDate = LedgerFixtures.baseDate
    request.succeeded = 3
    try store.commit([.putMassExtension(request)])
    XCTAssertEqual(try store.massExtension(productID: "com.example.monthly", requestID: "r1"), request)
    XCTAssertNil(try store.massExtension(productID: "com.example.monthly", requestID: "r2"))
    XCTAssertNil(try store.massExtension(productID: "com.example.yearly", requestID: "r1"))
  }

  /// `SKTestSession.deleteTransaction` (B71): one row goes; a chain whose first row it was starts at
  /// the next one.
  func deletingATransactionRemovesOnlyIt() throws {
    let store = try harness.makeStore()
    var first = LedgerFixtures.transaction(1, state: .purchased, finished: true)
    first.productKind = .nonConsumable
    var second = LedgerFixtures.transaction(2, state: .purchased, finished: true)
    second.productKind = .nonConsumable
    second.originalID = first.id
    try store.commit([.putTransaction(first), .putTransaction(second), .putTransaction(LedgerFixtures.transaction(3))])
    try store.commit([.deleteTransaction(first.id)])
    XCTAssertEqual(try store.allTransactions().map(\.id.rawValue), [2, 3])
    XCTAssertEqual(try store.load().transactions.map(\.id.rawValue), [2, 3], "the chain's remaining row still loads")
    try store.commit([.deleteTransaction(PaymentTransaction.ID(99))])
    XCTAssertEqual(try store.allTransactions().map(\.id.rawValue), [2, 3])
  }
}
