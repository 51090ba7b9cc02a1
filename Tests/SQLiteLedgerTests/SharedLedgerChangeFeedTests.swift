import Foundation
@testable import SQLiteLedger
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Changes another process commits reach this one as events from the ledger, not by re-reading it.
final class SharedLedgerChangeFeedTests: XCTestCase {
  private func engine(_ directory: TemporaryDirectory) throws -> PaymentQueue {
    let environment = StoreEnvironment(passwordHasher: InsecureTestHasher(), start: TestStore.start, firstTransactionID: 1)
    let queue = try PaymentQueue(
      catalog: FixtureCatalog.make(), ledger: try SQLiteLedgerStore(directory: directory.url), environment: environment)
    try queue.signIn("shared")
    try queue.set(.dialogs(false))
    return queue
  }

  func testAnotherProcesssPurchaseArrivesAsAnAmendmentAndASubscriptionChange() throws {
    let directory = try TemporaryDirectory()
    let mine = try engine(directory)
    let other = try engine(directory)
    let events = Locked<[StoreEvent]>([])
    let subscription = mine.bus.subscribe(StoreEvent.self) { event in events.withLock { $0.append(event) } }
    defer { subscription.cancel() }
    try mine.refresh()
    XCTAssertEqual(events.withLock { $0 }, [], "nothing changed yet")

    let bought = try other.add(Payment(productID: FixtureCatalog.monthly))
    try mine.refresh()
    let seen = events.withLock { $0 }
    let amended = seen.compactMap { if case .transactionsAmended(let list) = $0 { list } else { nil } }.flatMap { $0 }
    XCTAssertEqual(amended.map(\.id), [bought])
    XCTAssertEqual(amended.first?.state, .purchased)
    XCTAssertTrue(seen.contains { if case .subscriptionChanged(let record, _) = $0 { record.originalID == bought } else { false } })
    XCTAssertEqual(mine.subscriptions().map(\.originalID), [bought])
    XCTAssertEqual(mine.machine.transaction(bought)?.state, .purchased)

    // Its own commits are not announced twice, and a quiet ledger announces nothing.
    events.withLock { $0 = [] }
    try mine.finish(bought)
    events.withLock { $0 = [] }
    try mine.refresh()
    try mine.refresh()
    XCTAssertEqual(events.withLock { $0 }, [])
  }

  func testTheFeedReportsOnlyWhatChangedSinceThePosition() throws {
    let directory = try TemporaryDirectory()
    let writer = try SQLiteLedgerStore(directory: directory.url)
    let reader = try SQLiteLedgerStore(directory: directory.url)
    let start = try reader.load().position
    try writer.commit([.putTransaction(LedgerFixtures.transaction(1))])
    let first = try reader.changes(since: start)
    XCTAssertEqual(first.transactions.map(\.id.rawValue), [1])
    try writer.commit([.putTransaction(LedgerFixtures.transaction(2)), .putSubscription(LedgerFixtures.subscription(2, account: "a"))])
    let second = try reader.changes(since: first.position)
    XCTAssertEqual(second.transactions.map(\.id.rawValue), [2])
    XCTAssertEqual(second.subscriptions.map(\.originalID.rawValue), [2])
    XCTAssertEqual(try reader.changes(since: second.position), LedgerChanges(position: second.position))
    // Writing a row again unchanged does not report it again.
    try writer.commit([.putTransaction(LedgerFixtures.transaction(2))])
    XCTAssertEqual(try reader.changes(since: second.position).transactions, [])
  }

  /// A finish writes the flag alone: the stored JSON stays as the purchase wrote it, and another
  /// connection's feed reports the row finished.
  func testAFinishWritesTheFlagAloneAndTheFeedReportsIt() throws {
    let directory = try TemporaryDirectory()
    let writer = try SQLiteLedgerStore(directory: directory.url)
    let reader = try SQLiteLedgerStore(directory: directory.url)
    var bought = LedgerFixtures.transaction(3, state: .purchased)
    bought.signedTransaction = String(repeating: "y", count: 2000)
    try writer.commit([.putTransaction(bought)])
    let start = try reader.load().position
    let json = try XCTUnwrap(try writer.storedJSON(of: bought.id))
    var finished = bought
    finished.isFinished = true
    try writer.commit([.finishTransaction(finished)])
    XCTAssertEqual(try writer.storedJSON(of: bought.id), json, "the signed row is not written again")
    let feed = try reader.changes(since: start)
    XCTAssertEqual(feed.transactions, [finished])
    XCTAssertGreaterThan(feed.position, start)
    try writer.commit([.finishTransaction(finished)])
    XCTAssertEqual(try reader.changes(since: feed.position), LedgerChanges(position: feed.position), "a replay changes nothing")
  }

  /// Another process's device values reach the feed, and a queue's `sheetAnswers`.
  func testDeviceValuesReachTheFeed() throws {
    let directory = try TemporaryDirectory()
    let writer = try SQLiteLedgerStore(directory: directory.url)
    let reader = try SQLiteLedgerStore(directory: directory.url)
    let start = try reader.load().position
    try writer.commit([DeviceValues.answer(PaymentTransaction.ID(9), .cancel)])
    let feed = try reader.changes(since: start)
    let values = Dictionary(feed.changes.compactMap { change -> (String, String)? in
      if case .setDeviceValue(let key, let value?) = change { (key, value) } else { nil }
    }, uniquingKeysWith: { _, last in last })
    XCTAssertEqual(DeviceValues.answers(in: values), [PaymentTransaction.ID(9): .cancel])
  }

  /// Every kind of change reaches another process typed, removals and settings included: the
  /// commit log names the exact rows a clear removed.
  func testEveryKindOfChangeArrivesTyped() throws {
    let directory = try TemporaryDirectory()
    let writer = try SQLiteLedgerStore(directory: directory.url)
    let reader = try SQLiteLedgerStore(directory: directory.url)
    try writer.commit([.putTransaction(LedgerFixtures.transaction(1)), .putTransaction(LedgerFixtures.transaction(2))])
    let start = try reader.load().position
    try writer.commit([.clearHistory(account: LedgerFixtures.transaction(1).account)])
    try writer.commit([.putAccount(SandboxAccount(name: "mina")), .setCurrentAccount("mina")])
    try writer.commit([.setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/n"), .setClock(LedgerFixtures.baseDate)])
    try writer.commit([.putTransaction(LedgerFixtures.transaction(3))])
    try writer.commit([.deleteTransaction(PaymentTransaction.ID(3))])
    let feed = try reader.changes(since: start)
    XCTAssertEqual(feed.commits.count, 5)
    XCTAssertEqual(feed.commits.map(\.changes), [
      [.deleteTransaction(PaymentTransaction.ID(1)), .deleteTransaction(PaymentTransaction.ID(2))],
      [.putAccount(SandboxAccount(name: "mina")), .setCurrentAccount("mina")],
      [.setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/n"), .setClock(LedgerFixtures.baseDate)],
      // Transaction 3 was deleted by the next commit: its put is left out, its removal stays.
      [],
      [.deleteTransaction(PaymentTransaction.ID(3))],
    ])
    XCTAssertEqual(try reader.changes(since: feed.position), LedgerChanges(position: feed.position))
  }

  /// The log keeps its newest commits only; a reader behind what was trimmed is told to start over
  /// from the present, and a payment queue then equals a fresh launch.
  func testAReaderBehindTheTrimmedLogStartsOverFromThePresent() throws {
    let directory = try TemporaryDirectory()
    let options = SQLiteLedgerStore.Options(commitLogKept: 16)
    let environment = StoreEnvironment(passwordHasher: InsecureTestHasher(), start: TestStore.start, firstTransactionID: 1)
    let behind = try PaymentQueue(
      catalog: FixtureCatalog.make(), ledger: try SQLiteLedgerStore(directory: directory.url, options: options), environment: environment)
    let writer = try PaymentQueue(
      catalog: FixtureCatalog.make(), ledger: try SQLiteLedgerStore(directory: directory.url, options: options), environment: environment)
    try writer.signIn("shared")
    try writer.set(.dialogs(false))
    let commits = Locked<[LedgerCommit]>([])
    let subscription = behind.bus.subscribe(LedgerCommit.self) { commit in commits.withLock { $0.append(commit) } }
    defer { subscription.cancel() }
    for _ in 0..<30 { try writer.add(Payment(productID: FixtureCatalog.coins)) }
    let stored = try SQLiteLedgerStore(directory: directory.url)
    let rows = try stored.connection.integer("SELECT count(*) FROM commit_log")
    XCTAssertLessThanOrEqual(rows, 16 + 16 / 16, "the log is trimmed to its newest commits")
    XCTAssertTrue(try stored.changes(since: 0).startOver)
    try behind.refresh()
    let present = try XCTUnwrap(commits.withLock { $0.last?.present }, "the views are handed the present")
    XCTAssertEqual(present.transactions.count, 30, "each unfinished")
    let fresh = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: try SQLiteLedgerStore(directory: directory.url), environment: environment)
    XCTAssertEqual(behind.unfinishedTransactions, fresh.unfinishedTransactions)
    XCTAssertEqual(behind.currentAccount, "shared")
    XCTAssertEqual(try behind.ledger.changes(since: present.position), LedgerChanges(position: present.position))
  }
}
