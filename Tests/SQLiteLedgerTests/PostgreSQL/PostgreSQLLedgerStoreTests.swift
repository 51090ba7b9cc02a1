import Foundation
import StoreEngine
import XCTest

@testable import PostgreSQLLedger

/// What the shared ledger adds to the conformance suite: compare-and-set claims and id blocks
/// across connections, migrations when clients start at once, the change feed and its
/// notifications, and errors that never show the password.
final class PostgreSQLLedgerStoreTests: XCTestCase {
  private func purchasing(_ id: UInt64, owner: String?) -> PaymentTransaction {
    var transaction = LedgerFixtures.transaction(id)
    transaction.ownerSession = owner
    return transaction
  }

  func testClaimFromTheExpectedOwnerIsStoredAndASecondClientLosesIt() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "claim")
    let first = try PostgreSQLLedgerStore(uri)
    let second = try PostgreSQLLedgerStore(uri)
    try first.commit([.putTransaction(purchasing(1, owner: "dead"))])
    let claimed = try XCTUnwrap(try first.claimPurchase(.init(1), from: "dead", for: "B"))
    XCTAssertEqual(claimed.ownerSession, "B")
    XCTAssertNil(try second.claimPurchase(.init(1), from: "dead", for: "C"))
    XCTAssertEqual(try second.allTransactions(), [claimed])
    var answered = purchasing(2, owner: "dead")
    answered.state = .purchased
    try first.commit([.putTransaction(answered)])
    XCTAssertNil(try second.claimPurchase(.init(2), from: "dead", for: "C"), "no longer purchasing")
    XCTAssertNil(try second.claimPurchase(.init(99), from: "dead", for: "C"), "missing")
  }

  /// Eight clients claim one abandoned purchase at once: exactly one gets it.
  func testOfManyConcurrentClaimsExactlyOneWins() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "claims")
    try PostgreSQLLedgerStore(uri).commit([.putTransaction(purchasing(7, owner: "dead"))])
    // Each client its own connection, opened before they race.
    let stores = Locked(try (0..<8).map { _ in try PostgreSQLLedgerStore(uri) })
    let winners = Locked<[String]>([])
    let failures = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      let store = stores.withLock { $0[index] }
      do {
        if try store.claimPurchase(.init(7), from: "dead", for: "client-\(index)") != nil {
          winners.withLock { $0.append("client-\(index)") }
        }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    XCTAssertEqual(failures.withLock { $0 }, [])
    let won = winners.withLock { $0 }
    XCTAssertEqual(won.count, 1, "\(won)")
    XCTAssertEqual(try PostgreSQLLedgerStore(uri).allTransactions().first?.ownerSession, won.first)
  }

  func testIDBlocksReservedAtOnceNeverOverlap() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "ids")
    let stores = Locked(try (0..<6).map { _ in try PostgreSQLLedgerStore(uri) })
    let starts = Locked<[UInt64]>([])
    DispatchQueue.concurrentPerform(iterations: 6) { index in
      let store = stores.withLock { $0[index] }
      for _ in 0..<20 {
        if let start = try? store.reserveTransactionIDs(count: 64, atLeast: 1) { starts.withLock { $0.append(start) } }
      }
    }
    let sorted = starts.withLock { $0 }.sorted()
    XCTAssertEqual(sorted.count, 120, "every reservation succeeded")
    XCTAssertEqual(Set(sorted).count, sorted.count)
    for (lower, upper) in zip(sorted, sorted.dropFirst()) { XCTAssertGreaterThanOrEqual(upper, lower + 64) }
    XCTAssertEqual(try PostgreSQLLedgerStore(uri).reserveTransactionIDs(count: 1, atLeast: 1_000_000), 1_000_000, "the floor is honoured")
  }

  /// Clients starting at once on an empty database: the schema is made once, every client opens.
  func testConcurrentFirstStartMigratesOnce() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "migrate")
    let opened = Locked<[PostgreSQLLedgerStore]>([])
    let failures = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      do {
        let store = try PostgreSQLLedgerStore(uri)
        opened.withLock { $0.append(store) }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    XCTAssertEqual(failures.withLock { $0 }, [])
    let stores = opened.withLock { $0 }
    XCTAssertEqual(stores.count, 8)
    let version = try stores[0].connection.execute("SELECT version FROM storefront_schema").int64(0, 0)
    XCTAssertEqual(version, Int64(PostgreSQLLedgerStore.schemaVersion))
    try stores[0].commit([.putTransaction(LedgerFixtures.transaction(1))])
    XCTAssertEqual(try stores[7].allTransactions().map(\.id.rawValue), [1])
  }

  func testADatabaseOfANewerStorefrontIsRefusedByName() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "newer")
    let store = try PostgreSQLLedgerStore(uri)
    try store.connection.execute("UPDATE storefront_schema SET version = 99")
    XCTAssertThrowsError(try PostgreSQLLedgerStore(uri)) { error in
      XCTAssertEqual(error as? LedgerError, .newerSchema(path: store.name, found: 99, supported: PostgreSQLLedgerStore.schemaVersion))
      XCTAssertTrue("\(error)".contains("--ledger"), "\(error)")
    }
  }

  func testTheFeedReportsOnlyWhatOtherClientsChangedAndAReplayMovesNothing() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "feed")
    let writer = try PostgreSQLLedgerStore(uri)
    let reader = try PostgreSQLLedgerStore(uri)
    let start = try reader.load().position
    try writer.commit([.putTransaction(LedgerFixtures.transaction(1)), .setClock(LedgerFixtures.baseDate)])
    let first = try reader.changes(since: start)
    XCTAssertEqual(first.transactions.map(\.id.rawValue), [1])
    XCTAssertEqual(first.clock, LedgerFixtures.baseDate)
    try writer.commit([.putTransaction(LedgerFixtures.transaction(2)), .putSubscription(LedgerFixtures.subscription(2, account: "a"))])
    let second = try reader.changes(since: first.position)
    XCTAssertEqual(second.transactions.map(\.id.rawValue), [2])
    XCTAssertEqual(second.subscriptions.map(\.originalID.rawValue), [2])
    try writer.commit([.putTransaction(LedgerFixtures.transaction(2))])
    XCTAssertEqual(try reader.changes(since: second.position), LedgerChanges(position: second.position), "a replay moves nothing")
  }

  /// Another client's commit wakes a listener at once; the listener's own store's commits do not.
  func testAnotherClientsCommitWakesTheListener() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "listen")
    let mine = try PostgreSQLLedgerStore(uri)
    let other = try PostgreSQLLedgerStore(uri)
    let listener = try PostgreSQLChangeListener(address: PostgreSQLAddress(uri), ignoring: mine)
    try mine.commit([.putTransaction(LedgerFixtures.transaction(1))])
    XCTAssertFalse(try listener.wait(timeout: .milliseconds(200)), "its own store's commit is not news")
    let started = ContinuousClock.now
    try other.commit([.putTransaction(LedgerFixtures.transaction(2))])
    XCTAssertTrue(try listener.wait(timeout: .seconds(10)))
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
    // A replayed batch changes nothing and notifies nobody; an interrupt wakes the waiter without news.
    try other.commit([.putTransaction(LedgerFixtures.transaction(2))])
    listener.interrupt()
    XCTAssertFalse(try listener.wait(timeout: .seconds(10)))
  }

  func testOutboxEntriesComeOnePerChainAndKeepTheirFirstAttempt() throws {
    let store = try PostgreSQLLedgerStore(try PostgreSQLTestDatabase.make(label: "outbox"))
    func notification(_ type: NotificationType, original: UInt64?, at seconds: TimeInterval) -> ServerNotification {
      var notification = ServerNotification(
        notificationType: type, transactionID: original.map { PaymentTransaction.ID($0) },
        originalTransactionID: original.map { PaymentTransaction.ID($0) }, date: LedgerFixtures.baseDate.addingTimeInterval(seconds))
      notification.environment = "Sandbox"
      return notification
    }
    try store.commit([
      .putNotification(notification(.subscribed, original: 5, at: 0)),
      .putNotification(notification(.didRenew, original: 5, at: 10)),
      .putNotification(notification(.oneTimeCharge, original: 7, at: 5)),
    ])
    let now = LedgerFixtures.baseDate.addingTimeInterval(30)
    var due = try store.dueNotifications(at: now, environment: "Sandbox")
    XCTAssertEqual(due.map(\.notification.notificationType), [.subscribed, .oneTimeCharge])
    XCTAssertEqual(try store.dueNotifications(at: now, environment: "Production"), [])
    due[0].attempts = [DeliveryAttempt(date: now, result: .unsuccessfulHTTPResponseCode, httpStatus: 500)]
    due[0].nextAttempt = now.addingTimeInterval(3600)
    due[0].notificationUUID = "uuid-1"
    due[0].signedPayload = "payload-1"
    try store.recordDelivery(of: due[0])
    XCTAssertEqual(try store.dueNotifications(at: now, environment: "Sandbox").map(\.notification.notificationType), [.oneTimeCharge])
    due[0].state = .delivered
    due[0].notificationUUID = "changed"
    try store.recordDeliveries(of: [due[0]])
    let stored = try XCTUnwrap(try store.allNotifications().first)
    XCTAssertEqual(stored.state, .delivered)
    XCTAssertEqual(stored.notificationUUID, "uuid-1", "fixed at the first attempt")
    try store.redeliver(stored.sequence, at: now)
    XCTAssertEqual(try store.outbox(after: 0, limit: 1).first?.state, .pending)
    XCTAssertEqual(try store.outbox(after: 0, limit: 1).first?.attempts.count, 1, "attempts stay")
  }

  func testAnUnreachableServerIsNamedWithoutItsPassword() throws {
    let address = PostgreSQLAddress("postgresql://tester:s3cret-pw@127.0.0.1:1/team?connect_timeout=5")
    XCTAssertEqual(address.description, "postgresql://tester@127.0.0.1:1/team")
    XCTAssertThrowsError(try PostgreSQLLedgerStore(address: address)) { error in
      guard case .unreachable(let server, _)? = error as? LedgerError else { return XCTFail("\(error)") }
      XCTAssertEqual(server, "postgresql://tester@127.0.0.1:1/team")
      XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
      XCTAssertTrue("\(error)".contains("--ledger"), "\(error)")
    }
    let keywords = PostgreSQLAddress("host=db.example port=6543 dbname=team user=qa password=s3cret-pw")
    XCTAssertEqual(keywords.description, "postgresql://qa@db.example:6543/team")
    XCTAssertEqual(keywords.scrub("bad password s3cret-pw"), "bad password ***")
  }
}
