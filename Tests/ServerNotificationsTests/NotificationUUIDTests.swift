import Foundation
import XCTest

@testable import ServerNotifications

/// `notificationUUID`: v4 format, one per entry, the same for the same entry, another per ledger.
final class NotificationUUIDTests: XCTestCase {
  func testUUIDsAreVersion4UniquePerSequenceAndStablePerNamespace() throws {
    let namespace = NotificationUUID.namespace(seed: 7)
    let uuids = (1...20_000).map { NotificationUUID.make(namespace: namespace, sequence: Int64($0)) }
    XCTAssertEqual(Set(uuids).count, uuids.count)
    let pattern = try NSRegularExpression(pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
    for uuid in uuids.prefix(500) {
      XCTAssertEqual(pattern.numberOfMatches(in: uuid, range: NSRange(uuid.startIndex..., in: uuid)), 1, uuid)
      XCTAssertNotNil(UUID(uuidString: uuid))
    }
    XCTAssertEqual(NotificationUUID.make(namespace: namespace, sequence: 3), uuids[2], "a retry derives the same one")
    let other = NotificationUUID.namespace(seed: 8)
    XCTAssertNotEqual(NotificationUUID.make(namespace: other, sequence: 3), uuids[2], "another ledger, another UUID")
    XCTAssertNotEqual(NotificationUUID.randomNamespace(), NotificationUUID.randomNamespace())
  }

  func testRetryScheduleIsApplesProductionScheduleOrOneAttempt() {
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    let production = RetrySchedule.production
    var last = start
    var hours: [Double] = []
    for attempt in 1...6 {
      guard let next = production.nextAttempt(afterFailed: attempt, lastAt: last) else { break }
      hours.append(next.timeIntervalSince(last) / 3600)
      last = next
    }
    XCTAssertEqual(hours, [1, 12, 24, 48, 72], "six attempts in all")
    XCTAssertNil(RetrySchedule.once.nextAttempt(afterFailed: 1, lastAt: start))
    XCTAssertEqual(DeliveryConfiguration(environment: "Sandbox", bundleID: "b").schedule, .once)
    XCTAssertEqual(DeliveryConfiguration(environment: "Sandbox", bundleID: "b", retriesInSandbox: true).schedule, .production)
    XCTAssertEqual(DeliveryConfiguration(environment: "Production", bundleID: "b").schedule, .production)
  }

  func testNotificationURLsMustBeHTTPWithAHostAndHideCredentials() throws {
    XCTAssertEqual(try NotificationURL(validating: "https://example.com/hook").description, "https://example.com/hook")
    XCTAssertEqual(try NotificationURL(validating: "http://user:secret@127.0.0.1:9/h").description, "http://***@127.0.0.1:9/h")
    XCTAssertEqual(try NotificationURL(validating: "http://user:secret@127.0.0.1:9/h").text, "http://user:secret@127.0.0.1:9/h")
    for bad in ["ftp://example.com/x", "example.com/hook", "http:///path", "https://"] {
      XCTAssertThrowsError(try NotificationURL(validating: bad), bad)
    }
    do {
      _ = try NotificationURL(validating: "ftp://u:p@example.com")
      XCTFail("ftp accepted")
    } catch {
      XCTAssertFalse(error.reason.contains("p@"), "no credentials in the message: \(error.reason)")
    }
  }
}

/// The UUIDs of ledgers written before the text form was built byte by byte stay the same.
final class NotificationUUIDCompatibilityTests: XCTestCase {
  func testTheTextFormIsTheOneEarlierBuildsDerived() {
    for seed in [0, 7, 14] as [UInt64] {
      let namespace = NotificationUUID.namespace(seed: seed)
      for sequence in [1, 2, 3, 999, 1 << 40, Int64.max] as [Int64] {
        XCTAssertEqual(NotificationUUID.make(namespace: namespace, sequence: sequence), Self.reference(namespace: namespace, sequence: sequence))
      }
    }
  }

  /// The string-joining derivation of schema v5's builds.
  private static func reference(namespace: UInt128, sequence: Int64) -> String {
    func mix(_ value: UInt64) -> UInt64 {
      var z = value &+ 0x9E37_79B9_7F4A_7C15
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    func hex(_ value: UInt64) -> String {
      let digits = String(value, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }
    let high = mix(UInt64(truncatingIfNeeded: namespace >> 64) ^ UInt64(bitPattern: sequence))
    let low = mix(UInt64(truncatingIfNeeded: namespace) &+ UInt64(bitPattern: sequence) &* 0x9E37_79B9_7F4A_7C15)
    let versioned = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
    let varied = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    let characters = Array(hex(versioned) + hex(varied))
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
  }
}
