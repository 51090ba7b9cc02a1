import Foundation
import StoreServer
import XCTest

/// The log line's time is ISO 8601 in UTC with milliseconds, written without a date formatter.
final class RequestLogEntryTests: XCTestCase {
  func testTimesAreUTCWithMillisecondsTruncated() {
    let cases: [(TimeInterval, String)] = [
      (0, "1970-01-01T00:00:00.000Z"), (1_714_564_800.25, "2024-05-01T12:00:00.250Z"), (951_782_400, "2000-02-29T00:00:00.000Z"),
      (-1.5, "1969-12-31T23:59:58.500Z"), (1_767_225_599.9999, "2025-12-31T23:59:59.999Z"), (4_102_444_800.001, "2100-01-01T00:00:00.001Z"),
    ]
    for (seconds, expected) in cases {
      let entry = RequestLogEntry(
        date: Date(timeIntervalSince1970: seconds), method: "GET", path: "/", status: 200, latencyNanoseconds: 0, keyID: nil)
      XCTAssertEqual(entry.line, "\(expected) GET / 200 0.00ms key=-", "\(seconds)")
    }
  }
}
