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
