import Foundation
import PostgreSQLLedger
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

/// `storefront serve` delivering notifications from a shared PostgreSQL ledger: purchases made by
/// another process (its own data directory, as on another machine) reach a real receiver; two serves
/// on one database send each notification once; the leader killed with SIGKILL mid-delivery is taken
/// over by the other, which sends what was not recorded again with the same UUID and bytes.
final class SharedLedgerDeliveryTests: XCTestCase {
  private let coins = "com.jake.sample.ExInAppPurchase.coins100"

  private func database(_ label: String) throws -> String { try sharedLedgerDatabase(label) }

  private func setURL(_ url: String, uri: String, in directory: TemporaryDirectory) throws {
    let set = try StorefrontBinary.run(try ["notifications", "url", url, "--data-dir", directory.path("setter"), "--ledger", uri, "--key-file", TeamKey.file(in: directory)], in: directory)
    XCTAssertEqual(set.status, 0, set.summary)
  }

  private func buy(_ count: Int, uri: String, host: String, in directory: TemporaryDirectory) throws {
    let script = (["set dialogs off"] + Array(repeating: "buy \(coins)\nfinish last", count: count)).joined(separator: "\n") + "\n"
    let result = try StorefrontBinary.run(
      try ["run", "-", "--data-dir", directory.path(host), "--ledger", uri, "--account", host, "--key-file", TeamKey.file(in: directory)], stdin: Data(script.utf8), in: directory,
      timeout: 120)
    XCTAssertEqual(result.status, 0, result.summary)
  }

  /// The outbox once every entry is delivered (bounded wait), read straight from the database.
  private func delivered(_ uri: String, count: Int) throws -> [OutboxEntry] {
    let ledger = try PostgreSQLLedgerStore(uri)
    defer { ledger.close() }
    let deadline = ContinuousClock.now + .seconds(60)
    var entries = try ledger.outbox()
    while !(entries.count == count && entries.allSatisfy { $0.state == .delivered }), ContinuousClock.now < deadline {
      entries = try ledger.outbox()
    }
    XCTAssertEqual(entries.count, count)
    XCTAssertTrue(entries.allSatisfy { $0.state == .delivered }, "not all delivered: \(entries.map(\.state))")
    return entries
  }

  private static func uuid(_ request: WebhookReceiver.Request) -> String {
    DeliveryHarness.payload(DeliveryHarness.signedPayload(request))["notificationUUID"] as? String ?? ""
  }

  func testTwoServesDeliverOnceWhatAnotherProcessBuys() throws {
    let uri = try database("deliver")
    let directory = try TemporaryDirectory(self)
    let receiver = try WebhookReceiver()
    defer { receiver.stop() }
    try setURL(receiver.url, uri: uri, in: directory)
    let (first, _) = try DeliveryHarness.startServe(try ["--ledger", uri, "--key-file", TeamKey.file(in: directory)], data: directory.path("server-a"), in: directory)
    let (second, _) = try DeliveryHarness.startServe(try ["--ledger", uri, "--key-file", TeamKey.file(in: directory)], data: directory.path("server-b"), in: directory)
    let purchases = 30
    try buy(purchases, uri: uri, host: "tester", in: directory)

    XCTAssertTrue(receiver.waitForRequests(purchases, timeout: .seconds(60)), "got \(receiver.requests.count) of \(purchases)")
    let entries = try delivered(uri, count: purchases)
    try DeliveryHarness.stop(first)
    try DeliveryHarness.stop(second)
    let requests = receiver.requests
    XCTAssertEqual(requests.count, purchases, "each notification sent once, by one of the two serves")
    XCTAssertEqual(Set(requests.map(Self.uuid)), Set(entries.compactMap(\.notificationUUID)))
    for request in requests {
      let payload = DeliveryHarness.payload(DeliveryHarness.signedPayload(request))
      XCTAssertEqual(payload["notificationType"] as? String, "ONE_TIME_CHARGE")
    }
  }

  func testTheOtherServeTakesOverWhenTheDelivererIsKilled() throws {
    let uri = try database("takeover")
    let directory = try TemporaryDirectory(self)
    let receiver = try WebhookReceiver()
    defer { receiver.stop() }
    try setURL(receiver.url, uri: uri, in: directory)
    let purchases = 30
    try buy(purchases, uri: uri, host: "tester", in: directory)

    // The first serve alone sends request 0, so it holds the lease; its answer waits until the second
    // serve runs. The first is killed with request 3 sent and unanswered.
    let firstSent = DispatchSemaphore(value: 0)
    let secondRunning = DispatchSemaphore(value: 0)
    let victim = Locked(pid_t(0))
    let killAt = 3
    receiver.setBeforeAnswer { index in
      if index == 0 {
        firstSent.signal()
        _ = secondRunning.wait(timeout: .now() + 60)
      }
      if index == killAt {
        let pid = victim.withLock { $0 }
        if pid > 0 { kill(pid, SIGKILL) }
      }
    }
    let options = ["--ledger", uri, "--key-file", try TeamKey.file(in: directory), "--notify-timeout", "60s"]
    let (first, _) = try DeliveryHarness.startServe(options, data: directory.path("server-a"), in: directory)
    victim.withLock { $0 = first.processIdentifier }
    XCTAssertEqual(firstSent.wait(timeout: .now() + 60), .success, "the first serve sent nothing")
    let (second, _) = try DeliveryHarness.startServe(options, data: directory.path("server-b"), in: directory)
    secondRunning.signal()
    XCTAssertTrue(try first.wait(timeout: 60).signalled, "the first serve was killed")

    let entries = try delivered(uri, count: purchases)
    try DeliveryHarness.stop(second)
    let requests = receiver.requests
    let beforeKill = Set(requests.prefix(killAt + 1).map(Self.uuid))
    XCTAssertEqual(beforeKill.count, killAt + 1, "the first serve sent each once")
    var bodies: [String: Data] = [:]
    for (index, request) in requests.enumerated() {
      let uuid = Self.uuid(request)
      if let earlier = bodies[uuid] {
        XCTAssertEqual(earlier, request.body, "request \(index): a resend carries the same bytes")
        XCTAssertTrue(beforeKill.contains(uuid), "request \(index): only what the killed serve had sent is sent again")
      }
      bodies[uuid] = request.body
    }
    XCTAssertEqual(Set(bodies.keys), Set(entries.compactMap(\.notificationUUID)), "every notification arrived")
    XCTAssertLessThanOrEqual(requests.count, purchases + killAt + 1)
  }

  /// The database ends every backend of serve (as a server restart would): the deliverer reports the
  /// lost ledger, reconnects at its next look, and delivers what is bought afterwards.
  func testDeliveryResumesAfterTheDatabaseDropsServesConnections() throws {
    let uri = try database("dropped")
    let directory = try TemporaryDirectory(self)
    let receiver = try WebhookReceiver()
    defer { receiver.stop() }
    try setURL(receiver.url, uri: uri, in: directory)
    let (serve, _) = try DeliveryHarness.startServe(
      try ["--ledger", uri, "--key-file", TeamKey.file(in: directory)], data: directory.path("server"), in: directory)
    try buy(2, uri: uri, host: "before", in: directory)
    XCTAssertTrue(receiver.waitForRequests(2, timeout: .seconds(60)), "got \(receiver.requests.count) of 2")

    let terminate = try ChildProcess.run(
      "/usr/bin/env",
      ["psql", uri, "-Atc", "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"],
      timeout: 30)
    XCTAssertEqual(terminate.status, 0, terminate.stderr)
    XCTAssertGreaterThan(Int(terminate.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 0, "serve's backends were ended")
    try buy(2, uri: uri, host: "after", in: directory)
    XCTAssertTrue(receiver.waitForRequests(4, timeout: .seconds(60)), "got \(receiver.requests.count) of 4")
    _ = try delivered(uri, count: 4)
    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    let result = try serve.wait(timeout: 30)
    XCTAssertTrue(result.stdout.contains("notification delivery paused: Cannot reach the ledger database"), result.stdout)
    XCTAssertEqual(Set(receiver.requests.map(Self.uuid)).count, 4)
  }
}
