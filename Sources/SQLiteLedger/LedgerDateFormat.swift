import Foundation

/// How the ledger's JSON writes dates: ISO 8601 in UTC with milliseconds
/// (`2024-05-01T12:00:00.250Z`) when that text reads back as exactly the same `Date`, else the exact
/// `timeIntervalSinceReferenceDate` as a JSON number.
///
/// Dates from the virtual clock are whole seconds or milliseconds and stay readable; a live
/// `Date()` has sub-millisecond bits, and a ledger that rounded them would hand back a transaction
/// that is not `==` to the one committed.
enum LedgerDateFormat {
  private static let millisecondsPerDay: Int64 = 86_400_000

  static func encode(_ date: Date, to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let text = exactText(for: date) {
      try container.encode(text)
    } else {
      try container.encode(date.timeIntervalSinceReferenceDate)
    }
  }

  static func decode(from decoder: any Decoder) throws -> Date {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      guard let date = date(from: text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "'\(text)' is not a date like 2024-05-01T12:00:00.250Z")
      }
      return date
    }
    return Date(timeIntervalSinceReferenceDate: try container.decode(Double.self))
  }

  /// Subscription records' dates: milliseconds since 1970 as a JSON number, as records have always
  /// been written, when that reads back bit for bit; otherwise (a live `Date()` start) the exact
  /// `timeIntervalSinceReferenceDate` as a JSON string, so a record read back is `==` to the one
  /// committed (a rounded one looked like another process's change to the process that wrote it).
  static func encodeMilliseconds(_ date: Date, to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    if abs(milliseconds) < 9_007_199_254_740_992, Date(timeIntervalSince1970: milliseconds / 1000) == date {
      try container.encode(Int64(milliseconds))
    } else {
      try container.encode(String(date.timeIntervalSinceReferenceDate))
    }
  }

  static func decodeMilliseconds(from decoder: any Decoder) throws -> Date {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      guard let interval = Double(text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "'\(text)' is not a time interval since 2001-01-01")
      }
      return Date(timeIntervalSinceReferenceDate: interval)
    }
    return Date(timeIntervalSince1970: try container.decode(Double.self) / 1000)
  }

  /// The ISO text for `date`, or nil when it would not read back bit for bit.
  static func exactText(for date: Date) -> String? {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    // Years 1…9999 only, so the text always has four year digits.
    guard milliseconds >= -62_135_596_800_000, milliseconds < 253_402_300_800_000 else {
      return nil
    }
    let whole = Int64(milliseconds)
    guard self.date(milliseconds: whole) == date else { return nil }
    let day = floorDivide(whole, millisecondsPerDay)
    let inDay = whole - day * millisecondsPerDay
    let (year, month, dayOfMonth) = civil(fromDays: day)
    // Written digit by digit into a fixed buffer: this runs for every date of every commit.
    var bytes = Array("0000-00-00T00:00:00.000Z".utf8)
    func put(_ value: Int64, at offset: Int, width: Int) {
      var remaining = value
      for position in stride(from: offset + width - 1, through: offset, by: -1) {
        bytes[position] = 0x30 + UInt8(remaining % 10)
        remaining /= 10
      }
    }
    put(year, at: 0, width: 4)
    put(month, at: 5, width: 2)
    put(dayOfMonth, at: 8, width: 2)
    put(inDay / 3_600_000, at: 11, width: 2)
    put(inDay / 60_000 % 60, at: 14, width: 2)
    put(inDay / 1000 % 60, at: 17, width: 2)
    put(inDay % 1000, at: 20, width: 3)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Reads exactly the form ``exactText(for:)`` writes.
  static func date(from text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 24, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54,
      bytes[13] == 0x3A,
      bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[23] == 0x5A
    else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[range] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let millisecond = number(20..<23), year >= 1, (1...12).contains(month),
      (1...31).contains(day),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let days = days(fromCivil: year, month, day)
    return date(
      milliseconds: days * millisecondsPerDay + ((hour * 60 + minute) * 60 + second) * 1000
        + millisecond)
  }

  private static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
  }

  // Howard Hinnant's civil-calendar algorithms (proleptic Gregorian, days since 1970-01-01).
  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = floorDivide(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = floorDivide(shiftedYear, 400)
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

/// The JSON encoder and decoder the ledger stores values with: sorted keys, ``LedgerDateFormat``.
/// `package`, so the PostgreSQL ledger stores the same JSON.
package struct LedgerJSONCoder {
  private let encoder: JSONEncoder
  private let decoder: JSONDecoder

  package init(millisecondDates: Bool = false) {
    encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom(millisecondDates ? LedgerDateFormat.encodeMilliseconds : LedgerDateFormat.encode)
    decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom(millisecondDates ? LedgerDateFormat.decodeMilliseconds : LedgerDateFormat.decode)
  }

  package func encode<Value: Encodable>(_ value: Value) throws -> String {
    String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  package func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
    try decoder.decode(type, from: Data(text.utf8))
  }

  package func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    try decoder.decode(type, from: data)
  }
}
