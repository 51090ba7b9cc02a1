import Foundation
import XCTest

@testable import SQLiteLedger

final class LedgerDateFormatTests: XCTestCase {
  func testMillisecondDatesAreWrittenAsISOText() {
    let cases: [(Double, String)] = [
      (0, "1970-01-01T00:00:00.000Z"), (1_714_564_800.25, "2024-05-01T12:00:00.250Z"),
      (951_782_400, "2000-02-29T00:00:00.000Z"), (-1.5, "1969-12-31T23:59:58.500Z"),
      (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
      (-62_135_596_800, "0001-01-01T00:00:00.000Z"),
    ]
    for (seconds, text) in cases {
      let date = Date(timeIntervalSince1970: seconds)
      XCTAssertEqual(LedgerDateFormat.exactText(for: date), text)
      XCTAssertEqual(LedgerDateFormat.date(from: text), date, text)
    }
  }

  func testDatesThatTextWouldRoundAreNotWrittenAsText() {
    XCTAssertNil(LedgerDateFormat.exactText(for: Date(timeIntervalSinceReferenceDate: 0.000_1)))
    XCTAssertNil(LedgerDateFormat.exactText(for: .distantFuture.addingTimeInterval(1e12)))
  }

  /// Records keep milliseconds as numbers (the bytes every earlier ledger has) and any other date
  /// exactly: a live clock's start once came back rounded and looked like another process's change.
  func testRecordDatesRoundTripBitForBitAndKeepTheMillisecondBytes() throws {
    let coder = LedgerJSONCoder(millisecondDates: true)
    XCTAssertEqual(try coder.encode([Date(timeIntervalSince1970: 1_767_225_600.25)]), "[1767225600250]")
    XCTAssertEqual(try coder.decode([Date].self, from: "[1767225600250]"), [Date(timeIntervalSince1970: 1_767_225_600.25)])
    // What `.millisecondsSince1970` wrote for a date with sub-millisecond bits still reads.
    XCTAssertEqual(
      try coder.decode([Date].self, from: "[1767225600123.4568]").first?.timeIntervalSince1970 ?? 0, 1_767_225_600.1234568,
      accuracy: 1e-6)
    var generator = SplitMix(seed: 7)
    for _ in 0..<2_000 {
      let date = Date(timeIntervalSince1970: 1_767_225_600 + Double(generator.next() % 1_000_000_000) / 1e9 * 86_400)
      let decoded = try coder.decode([Date].self, from: try coder.encode([date]))
      XCTAssertEqual(decoded.first?.timeIntervalSinceReferenceDate.bitPattern, date.timeIntervalSinceReferenceDate.bitPattern)
    }
  }

  func testManyDatesRoundTripBitForBitThroughJSON() throws {
    var generator = SplitMix(seed: 42)
    let coder = LedgerJSONCoder()
    for _ in 0..<2_000 {
      let seconds =
        Double(generator.next() % 4_000_000_000) - 1_000_000_000 + Double(
          generator.next() % 1_000_000) / 1e6
      let dates = [
        Date(timeIntervalSince1970: seconds), Date(timeIntervalSince1970: seconds.rounded()),
      ]
      for date in dates {
        let decoded = try coder.decode([Date].self, from: try coder.encode([date]))
        XCTAssertEqual(
          decoded.first?.timeIntervalSinceReferenceDate.bitPattern,
          date.timeIntervalSinceReferenceDate.bitPattern)
      }
    }
  }

  func testMalformedDateTextIsRejected() {
    for text in [
      "", "2024-05-01", "2024-05-01T12:00:00Z", "2024-13-01T12:00:00.000Z",
      "2024-05-01T12:00:00.00xZ",
      "0000-01-01T00:00:00.000Z", "2024-05-01 12:00:00.000Z",
    ] {
      XCTAssertNil(LedgerDateFormat.date(from: text), text)
    }
    XCTAssertThrowsError(try LedgerJSONCoder().decode([Date].self, from: #"["yesterday"]"#))
  }
}

/// A tiny deterministic generator for the round-trip sweep.
struct SplitMix {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
