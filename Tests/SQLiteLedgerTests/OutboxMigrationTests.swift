import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

@testable import SQLiteLedger

/// Schema v6: a v5 outbox (delivery state in the notification's row) moves to `outbox_delivery` and
/// `outbox_sent` unchanged in meaning, and new notifications get their delivery row in their commit.
final class OutboxMigrationTests: XCTestCase {
  private func notification(_ type: NotificationType, original: UInt64, environment: String) -> ServerNotification {
    var queued = ServerNotification(
      notificationType: type, transactionID: PaymentTransaction.ID(original), originalTransactionID: PaymentTransaction.ID(original),
      date: LedgerFixtures.baseDate)
    queued.environment = environment
    return queued
  }

  /// Rebuilds the v5 table from the v6 tables, as a v5 build would have left it.
  private func downgradeToVersion5(_ store: SQLiteLedgerStore) throws {
    try HistoryMigrationTests.downgradeToVersion6(store)
    try store.connection.execute(
      """
      CREATE TABLE old AS SELECT o.seq, o.original_id, o.json, d.state, d.next_attempt, d.attempts, s.signed_payload, s.uuid
        FROM outbox o JOIN outbox_delivery d ON d.seq = o.seq LEFT JOIN outbox_sent s ON s.seq = o.seq;
      DROP TRIGGER outbox_queued; DROP TABLE outbox_delivery; DROP TABLE outbox_sent; DROP TABLE outbox;
      \(LedgerSchema.migrations[4])
      INSERT INTO outbox (seq, original_id, json, state, next_attempt, attempts, signed_payload, uuid) SELECT * FROM old;
      DROP TABLE old;
      PRAGMA user_version = 5;
      """)
  }

  func testAVersion5OutboxKeepsItsStateAttemptsAndPayloads() throws {
    let directory = try TemporaryDirectory()
    let now = LedgerFixtures.baseDate.addingTimeInterval(60)
    let expected: [OutboxEntry]
    do {
      let store = try SQLiteLedgerStore(directory: directory.url)
      try store.commit([
        .putNotification(notification(.subscribed, original: 5, environment: "Sandbox")),
        .putNotification(notification(.didRenew, original: 5, environment: "Sandbox")),
        .putNotification(notification(.oneTimeCharge, original: 7, environment: "Production")),
      ])
      var first = try XCTUnwrap(try store.outbox().first)
      first.attempts = [DeliveryAttempt(date: now, result: .unsuccessfulHTTPResponseCode, httpStatus: 500, milliseconds: 3)]
      first.nextAttempt = now.addingTimeInterval(3_600)
      first.notificationUUID = "uuid-1"
      first.signedPayload = "payload-1"
      try store.recordDelivery(of: first)
      expected = try store.outbox()
      try downgradeToVersion5(store)
      XCTAssertEqual(try store.connection.integer("SELECT count(*) FROM outbox WHERE uuid = 'uuid-1' AND state = 0"), 1)
      store.close()
    }
    let store = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(try store.connection.integer("PRAGMA user_version"), Int64(SQLiteLedgerStore.schemaVersion))
    XCTAssertEqual(try store.outbox(), expected, "state, attempts, UUID and payload as they were")
    XCTAssertEqual(
      try store.connection.texts("SELECT name FROM pragma_table_info('outbox') ORDER BY cid"), ["seq", "original_id", "json", "next_attempt"],
      "the delivery columns left the notification's row")
    // The retry waits for its hour and holds its chain back; the other environment's is not this one's.
    XCTAssertEqual(try store.dueNotifications(at: now, environment: "Sandbox").map(\.sequence), [])
    XCTAssertEqual(try store.dueNotifications(at: now.addingTimeInterval(3_600), environment: "Sandbox").map(\.sequence), [1])
    XCTAssertEqual(try store.dueNotifications(at: now, environment: "Production").map(\.sequence), [3])

    // A notification queued after the migration gets its delivery row in its own commit.
    try store.commit([.putNotification(notification(.test, original: 9, environment: "Sandbox"))])
    XCTAssertEqual(try store.dueNotifications(at: now, environment: "Sandbox").map(\.sequence), [4])
    XCTAssertEqual(try store.outbox().last?.state, .pending)
  }

  func testAnAttemptRewritesTheSmallDeliveryRowNotTheNotification() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    try store.commit([.putNotification(notification(.oneTimeCharge, original: 7, environment: "Sandbox"))])
    let before = try store.connection.texts("SELECT json FROM outbox")
    var entry = try XCTUnwrap(try store.outbox().first)
    entry.notificationUUID = "uuid-1"
    entry.signedPayload = "payload-1"
    try store.recordDelivery(of: entry)
    entry.attempts = [DeliveryAttempt(date: LedgerFixtures.baseDate, result: .success, httpStatus: 200, milliseconds: 1)]
    entry.state = .delivered
    entry.signedPayload = "payload-2"
    try store.recordDelivery(of: entry)
    XCTAssertEqual(try store.connection.texts("SELECT json FROM outbox"), before)
    XCTAssertEqual(try store.connection.texts("SELECT signed_payload FROM outbox_sent"), ["payload-1"], "the payload as first sent stays")
    XCTAssertEqual(try store.connection.texts("SELECT state FROM outbox_delivery"), ["1"])
    XCTAssertEqual(try store.outbox().first?.signedPayload, "payload-1")
  }
}
