import Foundation
import StoreEngine
import XCTest

@testable import SQLiteLedger

/// ``NotificationOutbox`` on both ledgers: attempts kept, UUID and payload fixed, a redelivery by hand
/// makes a finished entry due again as the same notification.
final class RedeliveryTests: XCTestCase {
  private func check(_ store: any LedgerStore & NotificationOutbox) throws {
    let date = LedgerFixtures.baseDate
    try store.commit([
      .putNotification(ServerNotification(notificationType: .test, date: date)),
      .putNotification(ServerNotification(notificationType: .refund, transactionID: PaymentTransaction.ID(9), originalTransactionID: PaymentTransaction.ID(9), date: date)),
    ])
    var first = try XCTUnwrap(try store.outbox(after: 0, limit: 1).first)
    XCTAssertEqual(first.sequence, 1)
    XCTAssertEqual(first.state, .pending)
    first.state = .failed
    first.nextAttempt = nil
    first.attempts = [DeliveryAttempt(date: date, result: .noResponse)]
    first.notificationUUID = "uuid-1"
    first.signedPayload = "payload-1"
    try store.recordDelivery(of: first)
    let later = date.addingTimeInterval(60)
    try store.redeliver(1, at: later)
    let again = try XCTUnwrap(try store.allNotifications().first)
    XCTAssertEqual(again.state, .pending)
    XCTAssertEqual(again.nextAttempt, later)
    XCTAssertEqual(again.attempts, first.attempts)
    XCTAssertEqual(again.notificationUUID, "uuid-1")
    XCTAssertEqual(again.signedPayload, "payload-1")
    XCTAssertEqual(try store.allNotifications().map(\.notification.notificationType), [.test, .refund])
    XCTAssertEqual(try store.outbox(after: 1, limit: 5).map(\.sequence), [2])
  }

  func testSQLite() throws {
    let directory = try TemporaryDirectory()
    try check(try SQLiteLedgerStore(directory: directory.url))
  }

  func testInMemory() throws {
    try check(InMemoryLedgerStore())
  }
}
