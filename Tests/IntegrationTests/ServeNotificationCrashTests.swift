import Foundation
import StorefrontProcessTestSupport
import XCTest

/// `storefront serve` killed with SIGKILL at seeded points while it delivers, and restarted, over and
/// over: every notification arrives at least once, a redelivery carries the same UUID and bytes, and
/// each original transaction's notifications arrive in order.
final class ServeNotificationCrashTests: XCTestCase {
  func testKilledOverAHundredTimesWhileDeliveringLosesNothing() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let receiver = try WebhookReceiver()
    defer { receiver.stop() }
    let set = try StorefrontBinary.run(["notifications", "url", receiver.url, "--data-dir", data], in: directory)
    XCTAssertEqual(set.status, 0, set.stderr)
    // Five subscription chains of ten (ordered) and a hundred one-time charges, queued before any serve runs.
    var script = "set dialogs off\n"
    for account in 1...5 {
      script += "account user\(account)\nbuy \(ServeNotificationDeliveryTests.monthly)\nfinish all\n"
      script += String(repeating: "renew last\nfinish all\n", count: 9)
      script += String(repeating: "buy \(ServeNotificationDeliveryTests.coins)\nfinish last\n", count: 20)
    }
    try DeliveryHarness.run(script, data: data, in: directory)
    let total = try DeliveryHarness.outbox(data, in: directory).count
    XCTAssertEqual(total, 150)

    // Kill points: before the receiver answers the k-th request of a serve's life (sent, not recorded),
    // k from a seeded generator, so the kills repeat run to run.
    var generator = SeededGenerator(seed: 14)
    let target = Guarded(Int.max)
    let victim = Guarded(Int32(0))
    receiver.setBeforeAnswer { index in
      guard index == target.withLock({ $0 }) else { return }
      // serve may send before its ready file is read and its pid noted: wait (bounded) for the pid.
      let pid = victim.wait(until: { $0 > 0 }, timeout: 30)
      if pid > 0 { kill(pid, SIGKILL) }
    }
    var kills = 0
    while kills < 110 {
      let before = receiver.requests.count
      target.withLock { $0 = before + Int(generator.next() % 3) }
      let (serve, _) = try DeliveryHarness.startServe([], data: data, in: directory)
      victim.withLock { $0 = serve.processIdentifier }
      let result = try serve.wait(timeout: 60)
      victim.withLock { $0 = 0 }
      XCTAssertTrue(result.signalled, "serve ended by itself: \(result.summary)")
      kills += 1
      if try DeliveryHarness.outbox(data, in: directory).allSatisfy({ $0["state"] as? String == "delivered" }) { break }
    }
    XCTAssertGreaterThanOrEqual(kills, 100, "the outbox emptied before a hundred kills")
    target.withLock { $0 = Int.max }
    let (serve, _) = try DeliveryHarness.startServe([], data: data, in: directory)
    let entries = try DeliveryHarness.waitForOutbox(data, in: directory) { $0.allSatisfy { $0["state"] as? String == "delivered" } }
    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    XCTAssertEqual(try serve.wait(timeout: 30).status, 0)

    let requests = receiver.requests
    XCTAssertGreaterThan(requests.count, total, "some were delivered again")
    let sequenceByUUID = Dictionary(uniqueKeysWithValues: entries.map { ($0["notificationUUID"] as? String ?? "", $0["sequence"] as? Int ?? 0) })
    let chainBySequence = Dictionary(uniqueKeysWithValues: entries.map { ($0["sequence"] as? Int ?? 0, $0["originalTransactionId"] as? String ?? "") })
    var bodyByUUID: [String: Data] = [:]
    var chains: [String: [Int]] = [:]
    for request in requests {
      let uuid = DeliveryHarness.payload(DeliveryHarness.signedPayload(request))["notificationUUID"] as? String ?? ""
      let sequence = try XCTUnwrap(sequenceByUUID[uuid], "a UUID the outbox does not have")
      if let earlier = bodyByUUID[uuid] { XCTAssertEqual(earlier, request.body, "a redelivery sends the same bytes") }
      bodyByUUID[uuid] = request.body
      chains[chainBySequence[sequence] ?? "", default: []].append(sequence)
    }
    XCTAssertEqual(bodyByUUID.count, total, "every notification arrived (deduped by UUID)")
    for (chain, sequences) in chains {
      XCTAssertEqual(sequences, sequences.sorted(), "chain \(chain): out of order")
    }
  }
}

/// SplitMix64: the kill points repeat run to run.
private struct SeededGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A value shared with the receiver's thread.
private final class Guarded<Value>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    return body(&value)
  }
  /// The value once `ready` holds for it, or as it is after `timeout` seconds.
  func wait(until ready: (Value) -> Bool, timeout: TimeInterval) -> Value {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !ready(value), condition.wait(until: deadline) {}
    return value
  }
}
