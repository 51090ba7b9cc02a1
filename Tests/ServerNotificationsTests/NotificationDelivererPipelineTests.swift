import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

@testable import ServerNotifications

/// The pipelined deliverer (a look's next chunk signed and fixed, the last attempts recorded, while
/// POSTs are in flight) over a real SQLite ledger and a real receiver: looks that span several
/// chunks keep each chain in order, and a stop with a chunk fixed ahead loses and repeats nothing.
final class NotificationDelivererPipelineTests: XCTestCase {
  private let base = Date(timeIntervalSince1970: 1_767_225_600)

  /// A ONE_TIME_CHARGE on `chain`, told apart by `mark` (its signedTransactionInfo).
  private func notification(chain: UInt64, mark: String) -> LedgerChange {
    var notification = ServerNotification(
      notificationType: .oneTimeCharge, transactionID: PaymentTransaction.ID(chain), originalTransactionID: PaymentTransaction.ID(chain),
      signedTransactionInfo: mark, date: base)
    notification.environment = "Sandbox"
    return .putNotification(notification)
  }

  /// The signedTransactionInfo of each request, in arrival order.
  private func marks(_ requests: [WebhookReceiver.Request]) throws -> [String] {
    try requests.map { request in
      let body = try XCTUnwrap(JSONSerialization.jsonObject(with: request.body) as? [String: Any])
      let jws = try XCTUnwrap(body["signedPayload"] as? String)
      var part = String(jws.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      while part.count % 4 != 0 { part += "=" }
      let payload = try XCTUnwrap(JSONSerialization.jsonObject(with: XCTUnwrap(Data(base64Encoded: part))) as? [String: Any])
      let data = try XCTUnwrap(payload["data"] as? [String: Any])
      return try XCTUnwrap(data["signedTransactionInfo"] as? String)
    }
  }

  private func deliverer(_ directory: TemporaryDirectory) throws -> NotificationDeliverer {
    try NotificationDeliverer(
      directory: directory.url, signer: UnsignedTestSigner(environment: "Sandbox"),
      configuration: DeliveryConfiguration(
        environment: "Sandbox", bundleID: "com.example.app", client: .init(connectTimeout: .seconds(1), totalTimeout: .seconds(2))),
      proposedNamespace: NotificationUUID.namespace(seed: 1), log: { _ in })
  }

  func testChunksCoverTheLookInOrder() {
    let due = (1...150).map { OutboxEntry(sequence: Int64($0), notification: ServerNotification(notificationType: .test, date: base)) }
    let chunks = NotificationDeliverer.Worker.chunks(of: due)
    XCTAssertEqual(chunks.map(\.count), [8, 64, 64, 14])
    XCTAssertEqual(chunks.flatMap { $0 }.map(\.sequence), Array(1...150))
    XCTAssertTrue(NotificationDeliverer.Worker.chunks(of: []).isEmpty)
  }

  func testLooksOfSeveralChunksKeepEachChainInOrder() throws {
    let directory = try TemporaryDirectory()
    let receiver = try WebhookReceiver()
    defer { receiver.stop() }
    let ledger = try SQLiteLedgerStore(directory: directory.url)
    // 40 chains of three, interleaved with 100 single ones: the first look (140 heads) spans three chunks.
    var changes: [LedgerChange] = [.setNotificationURL(environment: "Sandbox", url: receiver.url), .setClock(base)]
    for step in 0..<3 {
      for chain in 1...40 { changes.append(notification(chain: UInt64(chain), mark: "\(chain).\(step)")) }
      if step == 0 { for single in 1...100 { changes.append(notification(chain: UInt64(1_000 + single), mark: "\(1_000 + single).0")) } }
    }
    try ledger.commit(changes)
    let deliverer = try deliverer(directory)
    defer { deliverer.stop() }
    XCTAssertTrue(receiver.waitForRequests(220, timeout: .seconds(60)))
    try waitUntil("every attempt recorded") { try ledger.outbox().allSatisfy { $0.state == .delivered } }
    let arrived = try marks(receiver.requests)
    XCTAssertEqual(arrived.count, 220, "each sent once")
    var steps: [String: [Int]] = [:]
    for mark in arrived {
      let parts = mark.split(separator: ".")
      steps[String(parts[0]), default: []].append(Int(parts[1]) ?? -1)
    }
    for chain in 1...40 { XCTAssertEqual(steps["\(chain)"], [0, 1, 2], "chain \(chain) in order") }
    XCTAssertEqual(steps.count, 140)
    let entries = try ledger.outbox()
    XCTAssertTrue(entries.allSatisfy { $0.attempts.count == 1 && $0.notificationUUID != nil && $0.signedPayload != nil })
    XCTAssertEqual(
      entries.map(\.notificationUUID), entries.map { NotificationUUID.make(namespace: NotificationUUID.namespace(seed: 1), sequence: $0.sequence) })
  }

  func testStopWithAChunkFixedAheadLosesAndRepeatsNothing() throws {
    let directory = try TemporaryDirectory()
    let receiver = try WebhookReceiver()
    defer { receiver.stop() }
    let ledger = try SQLiteLedgerStore(directory: directory.url)
    try ledger.commit(
      [.setNotificationURL(environment: "Sandbox", url: receiver.url), .setClock(base)]
        + (1...200).map { notification(chain: UInt64($0), mark: "\($0).0") })
    let deliverer = try deliverer(directory)
    // Request 10 (the second chunk's third) is answered only once the deliverer is told to stop.
    let stopReturned = DispatchSemaphore(value: 0)
    receiver.setBeforeAnswer { index in
      guard index == 10 else { return }
      Thread {
        deliverer.stop()
        stopReturned.signal()
      }.start()
      let deadline = ContinuousClock.now + .seconds(20)
      while !deliverer.isStopped, ContinuousClock.now < deadline { usleep(1_000) }
    }
    XCTAssertTrue(receiver.waitForRequests(11))
    XCTAssertEqual(stopReturned.wait(timeout: .now() + 20), .success, "stop returns once the POST in flight is answered")
    XCTAssertEqual(receiver.requests.count, 11, "no POST after the stop")
    var entries = try ledger.outbox()
    XCTAssertEqual(entries.filter { $0.state == .delivered }.count, 11, "the attempt in flight is recorded before the stop returns")
    XCTAssertTrue(entries[11..<72].allSatisfy { $0.attempts.isEmpty && $0.signedPayload != nil }, "the chunk in flight is fixed, unsent")
    XCTAssertTrue(entries[136...].allSatisfy { $0.signedPayload == nil }, "nothing beyond the chunk fixed ahead")
    let fixedAhead = Dictionary(uniqueKeysWithValues: entries.compactMap { entry in entry.signedPayload.map { (entry.sequence, $0) } })

    receiver.setBeforeAnswer(nil)
    let restarted = try self.deliverer(directory)
    defer { restarted.stop() }
    XCTAssertTrue(receiver.waitForRequests(200, timeout: .seconds(60)))
    try waitUntil("every attempt recorded") { try ledger.outbox().allSatisfy { $0.state == .delivered } }
    XCTAssertEqual(try marks(receiver.requests), (1...200).map { "\($0).0" }, "each once, in order")
    entries = try ledger.outbox()
    for entry in entries where fixedAhead[entry.sequence] != nil {
      XCTAssertEqual(entry.signedPayload, fixedAhead[entry.sequence], "notification \(entry.sequence) sent with the bytes fixed before the stop")
    }
    let bodies = receiver.requests.map { String(decoding: $0.body, as: UTF8.self) }
    XCTAssertEqual(bodies[11], #"{"signedPayload":""# + (fixedAhead[12] ?? "") + #""}"#)
  }
}
