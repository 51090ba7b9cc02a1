import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

@testable import ServerNotifications

/// The deliverer over a real SQLite ledger and a real receiver: order per chain, retries on the
/// ledger's virtual clock, Sandbox's single attempt, another environment left alone.
final class NotificationDelivererTests: XCTestCase {
  private let base = Date(timeIntervalSince1970: 1_767_225_600)

  private func notification(
    _ type: NotificationType, _ subtype: NotificationSubtype? = nil, chain: UInt64?, environment: String, at seconds: TimeInterval = 0
  ) -> LedgerChange {
    var notification = ServerNotification(
      notificationType: type, subtype: subtype, transactionID: chain.map { PaymentTransaction.ID($0) },
      originalTransactionID: chain.map { PaymentTransaction.ID($0) }, signedTransactionInfo: chain.map { "jws.\($0)" },
      status: chain == nil ? nil : 1, date: base.addingTimeInterval(seconds - 10))
    notification.environment = environment
    return .putNotification(notification)
  }

  private func payload(of request: WebhookReceiver.Request) throws -> [String: Any] {
    let body = try XCTUnwrap(JSONSerialization.jsonObject(with: request.body) as? [String: Any])
    let jws = try XCTUnwrap(body["signedPayload"] as? String)
    var part = String(jws.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while part.count % 4 != 0 { part += "=" }
    return try XCTUnwrap(JSONSerialization.jsonObject(with: XCTUnwrap(Data(base64Encoded: part))) as? [String: Any])
  }

  private func deliverer(
    _ directory: TemporaryDirectory, environment: String, retries: Bool = false
  ) throws -> NotificationDeliverer {
    try NotificationDeliverer(
      directory: directory.url, signer: UnsignedTestSigner(environment: environment),
      configuration: DeliveryConfiguration(
        environment: environment, bundleID: "com.example.app", appAppleID: 42, retriesInSandbox: retries,
        client: .init(connectTimeout: .seconds(1), totalTimeout: .seconds(2))),
      proposedNamespace: NotificationUUID.namespace(seed: 1), log: { _ in })
  }

  func testProductionDeliversInOrderAndRetriesAsTheClockAdvances() throws {
    let directory = try TemporaryDirectory()
    let receiver = try WebhookReceiver()
    defer { receiver.stop() }
    let ledger = try SQLiteLedgerStore(directory: directory.url)
    try ledger.commit([
      .setNotificationURL(environment: "Production", url: receiver.url), .setClock(base),
      notification(.subscribed, .initialBuy, chain: 5, environment: "Production"),
      notification(.didRenew, chain: 5, environment: "Production", at: 1),
      notification(.test, chain: nil, environment: "Production", at: 2),
      notification(.oneTimeCharge, chain: 8, environment: "Sandbox"),
    ])
    let deliverer = try deliverer(directory, environment: "Production")
    defer { deliverer.stop() }
    XCTAssertTrue(receiver.waitForRequests(3))
    let first = try receiver.requests.map(payload)
    XCTAssertEqual(first.map { $0["notificationType"] as? String }, ["SUBSCRIBED", "TEST", "DID_RENEW"], "in order per chain; TEST has none")
    XCTAssertEqual(first[0]["subtype"] as? String, "INITIAL_BUY")
    XCTAssertNil(first[2]["subtype"], "no subtype, no key")
    XCTAssertEqual(first[0]["version"] as? String, "2.0")
    XCTAssertEqual(first[0]["signedDate"] as? Int, 1_767_225_590_000)
    let data = try XCTUnwrap(first[0]["data"] as? [String: Any])
    XCTAssertEqual(data["appAppleId"] as? Int, 42)
    XCTAssertEqual(data["environment"] as? String, "Production")
    XCTAssertEqual(data["signedTransactionInfo"] as? String, "jws.5")
    XCTAssertEqual(data["status"] as? Int, 1)
    XCTAssertEqual((first[1]["data"] as? [String: Any]).map { Set($0.keys) }, ["environment", "appAppleId", "bundleId"])
    let uuids = first.compactMap { $0["notificationUUID"] as? String }
    XCTAssertEqual(uuids, [1, 3, 2].map { NotificationUUID.make(namespace: NotificationUUID.namespace(seed: 1), sequence: Int64($0)) })

    // A failing receiver: chain 9's first waits for its retries, its second for it.
    receiver.setBehavior(.status(500))
    try ledger.commit([
      notification(.subscribed, .initialBuy, chain: 9, environment: "Production"),
      notification(.didRenew, chain: 9, environment: "Production", at: 1),
    ])
    XCTAssertTrue(receiver.waitForRequests(4))
    try waitUntil { try ledger.outbox()[4].attempts.count == 1 }
    var entries = try ledger.outbox()
    XCTAssertEqual(entries[4].nextAttempt, base.addingTimeInterval(3600))
    XCTAssertEqual(entries[4].attempts.first?.result, .unsuccessfulHTTPResponseCode)
    XCTAssertEqual(entries[4].attempts.first?.httpStatus, 500)
    XCTAssertEqual(entries[3].state, .pending, "the Sandbox entry is not Production's to deliver")
    XCTAssertTrue(entries[3].attempts.isEmpty)
    var clock = base
    for hours in [1.0, 12, 24, 48, 72] {
      clock = clock.addingTimeInterval(hours * 3600 - 1)
      try ledger.commit([.setClock(clock)])
      clock = clock.addingTimeInterval(1)
      try ledger.commit([.setClock(clock)])
      let attempts = 1 + ([1.0, 12, 24, 48, 72].firstIndex(of: hours) ?? 0) + 1
      XCTAssertTrue(receiver.waitForRequests(3 + attempts), "attempt \(attempts) at +\(hours) h")
      try waitUntil { try ledger.outbox()[4].attempts.count == attempts }
    }
    entries = try ledger.outbox()
    XCTAssertEqual(entries[4].state, .failed)
    XCTAssertEqual(entries[4].attempts.map(\.date).map { $0.timeIntervalSince(base) / 3600 }, [0, 1, 13, 37, 85, 157])
    // The failed entry no longer holds its chain: DID_RENEW goes next, with the same receiver failing.
    XCTAssertTrue(receiver.waitForRequests(10))
    let redelivered = try receiver.requests[3...8].map(payload).map { $0["notificationUUID"] as? String }
    XCTAssertEqual(Set(redelivered).count, 1, "every retry has the same UUID")
    XCTAssertEqual(Set(receiver.requests[3...8].map(\.body)).count, 1, "and the same bytes")
    XCTAssertEqual(try payload(of: receiver.requests[9])["notificationType"] as? String, "DID_RENEW")
  }

  func testSandboxTriesOnceUnlessAskedToRetry() throws {
    let directory = try TemporaryDirectory()
    let receiver = try WebhookReceiver(behavior: .status(503))
    defer { receiver.stop() }
    let ledger = try SQLiteLedgerStore(directory: directory.url)
    try ledger.commit([
      .setNotificationURL(environment: "Sandbox", url: receiver.url), .setClock(base),
      notification(.refund, chain: 5, environment: "Sandbox"),
    ])
    let once = try deliverer(directory, environment: "Sandbox")
    XCTAssertTrue(receiver.waitForRequests(1))
    try waitUntil { try ledger.outbox()[0].state == .failed }
    XCTAssertNil(try ledger.outbox()[0].nextAttempt)
    XCTAssertNil((try payload(of: receiver.requests[0])["data"] as? [String: Any])?["appAppleId"], "no appAppleId in Sandbox")
    once.stop()

    try ledger.commit([notification(.refund, chain: 6, environment: "Sandbox")])
    let retrying = try deliverer(directory, environment: "Sandbox", retries: true)
    defer { retrying.stop() }
    XCTAssertTrue(receiver.waitForRequests(2))
    try waitUntil { try ledger.outbox()[1].attempts.count == 1 }
    XCTAssertEqual(try ledger.outbox()[1].nextAttempt, base.addingTimeInterval(3600))
    XCTAssertEqual(try ledger.outbox()[1].state, .pending)
    XCTAssertEqual(receiver.requests.count, 2, "the failed Sandbox entry stays failed")
  }
}
