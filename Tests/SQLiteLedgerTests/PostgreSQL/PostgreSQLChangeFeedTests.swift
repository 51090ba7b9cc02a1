import Foundation
import StoreEngine
import XCTest

@testable import PostgreSQLLedger

/// The change feed without a global lock: while writers on their own connections commit at once, a
/// reader polling ``PostgreSQLLedgerStore/changes(since:)`` sees every commit exactly once, and a
/// commit never before one that committed earlier.
final class PostgreSQLChangeFeedTests: XCTestCase {
  func testConcurrentCommitsReachAPollingReaderExactlyOnce() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "feed")
    let writers = 4
    let perWriter = 100
    let stores = Locked(try (0..<writers).map { _ in try PostgreSQLLedgerStore(uri) })
    let reader = try PostgreSQLLedgerStore(uri)
    var position = try reader.load().position
    let done = Locked(0)
    let failures = Locked<[String]>([])
    DispatchQueue.global().async {
      DispatchQueue.concurrentPerform(iterations: writers) { writer in
        let store = stores.withLock { $0[writer] }
        for index in 0..<perWriter {
          do {
            try store.commit([.putTransaction(LedgerFixtures.transaction(UInt64(writer * 10_000 + index + 1)))])
          } catch {
            failures.withLock { $0.append("writer \(writer): \(error)") }
          }
        }
        done.withLock { $0 += 1 }
      }
    }
    var seen: [UInt64: Int] = [:]
    var reads = 0
    let deadline = ContinuousClock.now + .seconds(120)
    while ContinuousClock.now < deadline {
      let finished = done.withLock { $0 } == writers
      let changes = try reader.changes(since: position)
      position = changes.position
      reads += 1
      for transaction in changes.transactions { seen[transaction.id.rawValue, default: 0] += 1 }
      if finished { break }
    }
    XCTAssertEqual(failures.withLock { $0 }, [])
    XCTAssertEqual(seen.count, writers * perWriter, "every commit reached the reader (\(reads) reads)")
    XCTAssertEqual(seen.filter { $0.value != 1 }, [:], "no commit reached it twice")
    XCTAssertGreaterThan(reads, 2, "the reader read while the writers wrote")
  }

  /// A commit by a transaction that took its id early (it waited on a row lock) and committed
  /// after a later id: a read after both sees both; a read in between sees only the later one.
  func testAnEarlyIdCommittedLateIsNotMissed() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "late")
    let reader = try PostgreSQLLedgerStore(uri)
    let start = try reader.load().position
    let late = try PostgreSQLConnection(PostgreSQLAddress(uri))
    // Takes a transaction id first, then holds it open.
    try late.execute("BEGIN")
    try late.execute(
      "INSERT INTO kv (key, value, changed) VALUES ('late', 'x', pg_current_xact_id()::text::bigint)")
    try PostgreSQLLedgerStore(uri).commit([.putTransaction(LedgerFixtures.transaction(2))])
    let first = try reader.changes(since: start)
    XCTAssertEqual(first.transactions.map(\.id.rawValue), [2])
    try late.execute(
      """
      INSERT INTO transactions (id, account, product_id, state, is_finished, original_id, purchase_date, product_kind,
        has_expiry, changed, json)
      SELECT 1, account, product_id, state, is_finished, 1, purchase_date, product_kind, has_expiry,
        pg_current_xact_id()::text::bigint, replace(json, '"id":2', '"id":1')
      FROM transactions WHERE id = 2
      """)
    // What every writer logs with its rows (the commit log).
    try late.execute(#"INSERT INTO commit_log (stamp, entries) VALUES (pg_current_xact_id()::text::bigint, '[["t",1]]')"#)
    try late.execute("COMMIT")
    let second = try reader.changes(since: first.position)
    XCTAssertEqual(second.transactions.map(\.id.rawValue), [1], "the early id's commit comes once it commits")
    XCTAssertEqual(try reader.changes(since: second.position).transactions, [], "and only once")
  }
}
