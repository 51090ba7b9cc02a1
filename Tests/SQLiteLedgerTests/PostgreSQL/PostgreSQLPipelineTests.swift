import Foundation
import StoreEngine
import XCTest

@testable import PostgreSQLLedger

/// Pipelined commits (DECISIONS §29): pipelined prepared statements, a failure in the middle
/// of a batch, and the `NOTIFY` sent after `COMMIT` only when a row changed, on each commit path.
final class PostgreSQLPipelineTests: XCTestCase {
  func testAFailedStatementMidBatchThrowsItsErrorAndTheConnectionGoesOn() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "pipeline")
    let connection = try PostgreSQLConnection(PostgreSQLAddress(uri))
    try connection.execute("CREATE TABLE t (id integer PRIMARY KEY)")
    let insert = "INSERT INTO t (id) VALUES ($1)"
    XCTAssertThrowsError(
      try connection.pipeline([("BEGIN", []), (insert, [.int(1)]), (insert, [.int(1)]), (insert, [.int(2)]), ("COMMIT", [])])
    ) { error in
      XCTAssertEqual((error as? PostgreSQLFailure)?.sqlState, "23505", "the duplicate's error, not the skipped statements'")
    }
    try connection.execute("ROLLBACK")
    XCTAssertThrowsError(try connection.pipeline([("SELEC 1", [])])) { error in
      XCTAssertEqual((error as? PostgreSQLFailure)?.sqlState, "42601")
    }
    // The prepared statements survive; the one that never parsed is parsed (and refused) again.
    let results = try connection.pipeline([("BEGIN", []), (insert, [.int(3)]), ("SELECT count(*) FROM t", []), ("COMMIT", [])])
    XCTAssertEqual(results.count, 4)
    XCTAssertEqual(results[1].affectedRows, 1)
    XCTAssertEqual(results[2].int64(0, 0), 1, "nothing of the failed batch was written")
    XCTAssertThrowsError(try connection.pipeline([("SELEC 1", [])])) { error in
      XCTAssertEqual((error as? PostgreSQLFailure)?.sqlState, "42601")
    }
  }

  func testAFailureAfterCommitInTheOptionalTailIsNotThrown() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "pipeline-tail")
    let connection = try PostgreSQLConnection(PostgreSQLAddress(uri))
    try connection.execute("CREATE TABLE t (id integer PRIMARY KEY)")
    let results = try connection.pipeline(
      [("BEGIN", []), ("INSERT INTO t (id) VALUES (1)", []), ("COMMIT", []), ("SELECT 1 / 0", [])], optional: 1)
    XCTAssertEqual(results.count, 3, "the failed tail has no result")
    XCTAssertEqual(try connection.execute("SELECT count(*) FROM t").int64(0, 0), 1, "the commit stands")
  }

  /// Each commit path notifies listeners after a commit that changed a row, and nobody after one
  /// that changed nothing: stamped upserts (one round trip, the server decides), an outbox insert
  /// (always a change), and a delete (its count comes back first).
  func testEveryCommitPathNotifiesExactlyWhenARowChanged() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "pipeline-notify")
    let listening = try PostgreSQLLedgerStore(uri)
    let writer = try PostgreSQLLedgerStore(uri)
    let listener = try PostgreSQLChangeListener(address: PostgreSQLAddress(uri), ignoring: listening)
    func notifies(_ changes: [LedgerChange]) throws -> Bool {
      try writer.commit(changes)
      // A notification is sent before commit returns: a short wait sees it or proves its absence.
      return try listener.wait(timeout: .milliseconds(500))
    }
    let subscription = LedgerFixtures.subscription(2, account: "a")
    XCTAssertTrue(try notifies([.putTransaction(LedgerFixtures.transaction(1))]))
    XCTAssertFalse(try notifies([.putTransaction(LedgerFixtures.transaction(1))]), "a replayed upsert")
    XCTAssertTrue(try notifies([.putSubscription(subscription), .setClock(LedgerFixtures.baseDate)]))
    XCTAssertFalse(try notifies([.putSubscription(subscription), .setClock(LedgerFixtures.baseDate)]), "replayed")
    let notification = ServerNotification(
      notificationType: .oneTimeCharge, transactionID: PaymentTransaction.ID(1), date: LedgerFixtures.baseDate)
    XCTAssertTrue(try notifies([.putNotification(notification)]), "an outbox entry")
    XCTAssertTrue(try notifies([.removeSubscription(subscription.originalID)]))
    XCTAssertFalse(try notifies([.removeSubscription(subscription.originalID)]), "a delete of nothing")
    XCTAssertEqual(try writer.allTransactions().map(\.id.rawValue), [1])
    XCTAssertEqual(try writer.load().subscriptions, [])
  }
}
