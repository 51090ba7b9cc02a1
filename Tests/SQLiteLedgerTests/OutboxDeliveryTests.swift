import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

@testable import SQLiteLedger

/// What the deliverer reads and writes: due heads per chain and environment, the clock, the URL,
/// the UUID namespace, attempts recorded in one transaction.
final class OutboxDeliveryTests: XCTestCase {
  private func notification(_ type: NotificationType, original: UInt64?, environment: String, at seconds: TimeInterval) -> LedgerChange {
    var notification = ServerNotification(
      notificationType: type, transactionID: original.map { PaymentTransaction.ID($0) },
      originalTransactionID: original.map { PaymentTransaction.ID($0) }, date: LedgerFixtures.baseDate.addingTimeInterval(seconds))
    notification.environment = environment
    return .putNotification(notification)
  }

  func testDueHeadsPerChainAndEnvironmentFirstAttemptsWhateverTheClock() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertNil(try store.virtualClock())
    XCTAssertNil(try store.notificationURL(environment: "Sandbox"))
    try store.commit([
      .setClock(LedgerFixtures.baseDate), .setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/h"),
      notification(.subscribed, original: 5, environment: "Sandbox", at: 0),
      notification(.didRenew, original: 5, environment: "Sandbox", at: 100),
      notification(.oneTimeCharge, original: 7, environment: "Production", at: 0),
      notification(.test, original: nil, environment: "Sandbox", at: 200),
    ])
    XCTAssertEqual(try store.virtualClock(), LedgerFixtures.baseDate)
    XCTAssertEqual(try store.notificationURL(environment: "Sandbox"), "http://127.0.0.1:9/h")
    // Dated after the clock, the TEST is still due: a first attempt waits for nothing.
    XCTAssertEqual(try store.dueNotifications(at: LedgerFixtures.baseDate, environment: "Sandbox").map(\.sequence), [1, 4])
    XCTAssertEqual(try store.dueNotifications(at: LedgerFixtures.baseDate, environment: "Production").map(\.sequence), [3])

    var entries = try store.dueNotifications(at: LedgerFixtures.baseDate, environment: "Sandbox")
    entries[0].attempts = [DeliveryAttempt(date: LedgerFixtures.baseDate, result: .timedOut)]
    entries[0].nextAttempt = LedgerFixtures.baseDate.addingTimeInterval(3600)
    entries[0].notificationUUID = "u1"
    entries[0].signedPayload = "p1"
    entries[1].state = .delivered
    entries[1].attempts = [DeliveryAttempt(date: LedgerFixtures.baseDate, result: .success, httpStatus: 200)]
    try store.recordDeliveries(of: entries)
    XCTAssertEqual(try store.dueNotifications(at: LedgerFixtures.baseDate, environment: "Sandbox").map(\.sequence), [], "the chain waits for its retry")
    XCTAssertEqual(try store.dueNotifications(at: LedgerFixtures.baseDate.addingTimeInterval(3600), environment: "Sandbox").map(\.sequence), [1])
    XCTAssertEqual(try store.outbox()[3].state, .delivered)

    let namespace = try store.notificationNamespace(proposing: 42)
    XCTAssertEqual(namespace, 42)
    XCTAssertEqual(try store.notificationNamespace(proposing: 7), 42, "kept once chosen")
    let other = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(try other.notificationNamespace(proposing: 9), 42, "every connection derives the same")
    let before = try store.dataVersion()
    try other.commit([.setClock(LedgerFixtures.baseDate.addingTimeInterval(1))])
    XCTAssertNotEqual(try store.dataVersion(), before, "another connection's commit changes data_version")
  }
}
