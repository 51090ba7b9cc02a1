import Foundation
import XCTest

@testable import AppReceipt

/// The date strings of the receipt and of verifyReceipt, pinned, and the arithmetic that writes
/// them checked against Foundation's `Calendar` and ISO 8601 style it replaced.
final class ReceiptDateTextTests: XCTestCase {
  private static func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

  func test_pacificAcrossBothDaylightSavingChanges_2026() {
    let dates = ReceiptJSONDate()
    // 2026-03-08 02:00 PST becomes 03:00 PDT (10:00 UTC); 2026-11-01 02:00 PDT becomes 01:00 PST (09:00 UTC).
    let cases: [(TimeInterval, String, String)] = [
      (1_772_963_999, "2026-03-08 09:59:59 Etc/GMT", "2026-03-08 01:59:59 America/Los_Angeles"),
      (1_772_964_000, "2026-03-08 10:00:00 Etc/GMT", "2026-03-08 03:00:00 America/Los_Angeles"),
      (1_793_523_599, "2026-11-01 08:59:59 Etc/GMT", "2026-11-01 01:59:59 America/Los_Angeles"),
      (1_793_523_600, "2026-11-01 09:00:00 Etc/GMT", "2026-11-01 01:00:00 America/Los_Angeles"),
      (1_767_225_600, "2026-01-01 00:00:00 Etc/GMT", "2025-12-31 16:00:00 America/Los_Angeles"),
      (1_709_164_800.999, "2024-02-29 00:00:00 Etc/GMT", "2024-02-28 16:00:00 America/Los_Angeles"),
      (-1.5, "1969-12-31 23:59:58 Etc/GMT", "1969-12-31 15:59:58 America/Los_Angeles"),
    ]
    for (seconds, gmt, pst) in cases {
      XCTAssertEqual(dates.gmt(Self.date(seconds)), gmt, "\(seconds)")
      XCTAssertEqual(dates.pst(Self.date(seconds)), pst, "\(seconds)")
    }
    var object: [String: ReceiptJSON] = [:]
    dates.put(Self.date(1_793_523_600.5), as: .init("purchase_date"), into: &object)
    XCTAssertEqual(
      object,
      [
        "purchase_date": .string("2026-11-01 09:00:00 Etc/GMT"), "purchase_date_ms": .string("1793523600500"),
        "purchase_date_pst": .string("2026-11-01 01:00:00 America/Los_Angeles"),
      ])
  }

  func test_receiptDates_rfc3339_bothWays() {
    XCTAssertEqual(ReceiptDate.rfc3339(Self.date(1_767_225_600.75)), "2026-01-01T00:00:00Z")
    XCTAssertEqual(ReceiptDate.rfc3339(Self.date(951_782_400)), "2000-02-29T00:00:00Z")
    XCTAssertEqual(ReceiptDate.parse("2026-01-01T00:00:00Z"), Self.date(1_767_225_600))
    XCTAssertEqual(ReceiptDate.parse("2000-02-29T23:59:59Z"), Self.date(951_868_799))
    XCTAssertNil(ReceiptDate.parse("not a date"))
    XCTAssertNil(ReceiptDate.parse(""))
  }

  /// Hourly and odd instants over 1900–2100 (every DST rule Los Angeles has had in that span),
  /// against the Foundation code the arithmetic replaced.
  func test_arithmeticMatchesFoundation() {
    let dates = ReceiptJSONDate()
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "GMT") ?? utc.timeZone
    var pacific = Calendar(identifier: .gregorian)
    pacific.timeZone = TimeZone(identifier: "America/Los_Angeles") ?? pacific.timeZone
    var generator = SplitMix(seed: 15)
    var instants: [TimeInterval] = []
    // Every hour around this decade's transitions, and random instants (some fractional) since 1900.
    for hour in stride(from: 1_741_500_000.0, to: 1_741_500_000.0 + 86_400 * 400, by: 3_600) { instants.append(hour) }
    for _ in 0..<20_000 {
      let seconds = Double(generator.next() % 6_311_390_400) - 2_208_988_800
      instants.append(generator.next() % 2 == 0 ? seconds : seconds + Double(generator.next() % 1_000) / 1_000)
    }
    for seconds in instants {
      let date = Self.date(seconds)
      XCTAssertEqual(dates.gmt(date), ReceiptJSONDate.text(date, in: utc, zone: "Etc/GMT"), "\(seconds)")
      XCTAssertEqual(dates.pst(date), ReceiptJSONDate.text(date, in: pacific, zone: "America/Los_Angeles"), "\(seconds)")
      let whole = Date(timeIntervalSince1970: seconds.rounded(.down))
      let rfc = ReceiptDate.rfc3339(date)
      XCTAssertEqual(rfc, whole.formatted(.iso8601), "\(seconds)")
      XCTAssertEqual(ReceiptDate.parse(rfc), try? Date(rfc, strategy: .iso8601), rfc)
    }
  }

  /// Text the fast path refuses goes to Foundation, which decides as before.
  func test_parse_outOfRangeFields_askFoundation() {
    for text in ["2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00+02:00", "1800-01-01T00:00:00Z"] {
      XCTAssertEqual(ReceiptDate.parse(text), try? Date(text, strategy: .iso8601), text)
    }
  }
}

/// A seeded generator, so a failure names an instant that fails again.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
