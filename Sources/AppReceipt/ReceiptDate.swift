import Foundation

/// The receipt's date text: RFC 3339 in UTC without fractions (`2026-01-01T00:00:00Z`), as Apple writes it.
///
/// The exact 20-character form is written and read with ``CivilTime``; anything else (other years,
/// offsets, fractions) goes to Foundation's ISO 8601 style, whose answers these match.
enum ReceiptDate {
  static func rfc3339(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    if let whole = Int64(exactly: seconds) {
      let civil = CivilTime(seconds: whole)
      if CivilTime.supportedYears.contains(civil.year) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        civil.append(to: &bytes, separator: UInt8(ascii: "T"))
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
      }
    }
    return Date(timeIntervalSince1970: seconds).formatted(.iso8601)
  }

  static func parse(_ text: String) -> Date? {
    if let seconds = fastParse(text) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
    return try? Date(text, strategy: .iso8601)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` with every field in range, or nil (Foundation then decides).
  private static func fastParse(_ text: String) -> Int64? {
    text.utf8.withContiguousStorageIfAvailable { bytes -> Int64? in
      guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
        bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
      else { return nil }
      func number(_ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
          let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
          guard (0...9).contains(digit) else { return nil }
          value = value * 10 + digit
        }
        return value
      }
      guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
        let minute = number(14, 2), let second = number(17, 2), CivilTime.supportedYears.contains(year), (1...12).contains(month),
        (1...CivilTime.daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 60
      else { return nil }
      return CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second).secondsSince1970
    } ?? nil
  }
}
