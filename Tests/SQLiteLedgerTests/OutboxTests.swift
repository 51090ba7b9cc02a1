import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

@testable import SQLiteLedger

/// The notification outbox: written with its cause, delivered in order per chain, attempts kept.
final class OutboxTests: XCTestCase {
  private func notification(_ type: NotificationType, original: UInt64?, at seconds: TimeInterval) -> ServerNotification {
    ServerNotification(
      notificationType: type, transactionID: original.map { PaymentTransaction.ID($0) },
      originalTransactionID: original.map { PaymentTransaction.ID($0) }, date: LedgerFixtures.baseDate.addingTimeInterval(seconds))
  }

  func testDueEntriesComeOnePerChainInOrderAndAttemptsAreKept() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    try store.commit([
      .putNotification(notification(.subscribed, original: 5, at: 0)),
      .putNotification(notification(.didRenew, original: 5, at: 10)),
      .putNotification(notification(.oneTimeCharge, original: 7, at: 5)),
      .putNotification(notification(.test, original: nil, at: 20)),
    ])
    XCTAssertEqual(try store.outbox().map(\.notification.notificationType), [.subscribed, .didRenew, .oneTimeCharge, .test])
    let now = LedgerFixtures.baseDate.addingTimeInterval(30)
    // DID_RENEW waits for SUBSCRIBED of the same chain.
    var due = try store.dueNotifications(at: now)
    XCTAssertEqual(due.map(\.notification.notificationType), [.subscribed, .oneTimeCharge, .test])
    XCTAssertEqual(try store.dueNotifications(at: LedgerFixtures.baseDate.addingTimeInterval(4)).map(\.sequence), [1])
    XCTAssertEqual(try store.nextNotificationDue(), LedgerFixtures.baseDate)

    var first = due[0]
    first.attempts = [DeliveryAttempt(date: now, result: .unsuccessfulHTTPResponseCode, httpStatus: 500, milliseconds: 3)]
    first.nextAttempt = now.addingTimeInterval(3600)
    first.notificationUUID = "uuid-1"
    first.signedPayload = "payload-1"
    try store.recordDelivery(of: first)
    due = try store.dueNotifications(at: now)
    XCTAssertEqual(due.map(\.notification.notificationType), [.oneTimeCharge, .test], "the chain waits for its retry")
    first.state = .delivered
    first.nextAttempt = nil
    first.attempts.append(DeliveryAttempt(date: now.addingTimeInterval(3600), result: .success, httpStatus: 200))
    first.notificationUUID = "changed"
    try store.recordDelivery(of: first)
    let stored = try XCTUnwrap(try store.outbox().first)
    XCTAssertEqual(stored.state, .delivered)
    XCTAssertEqual(stored.attempts.count, 2)
    XCTAssertEqual(stored.notificationUUID, "uuid-1", "fixed at the first attempt")
    XCTAssertEqual(stored.signedPayload, "payload-1")
    XCTAssertEqual(try store.dueNotifications(at: now).map(\.notification.notificationType), [.didRenew, .oneTimeCharge, .test])
  }
}
