import Foundation

/// verifyReceipt's three spellings of a date: `_date` (`2026-11-29 10:26:10 Etc/GMT`), `_date_ms`
/// (milliseconds, a string) and `_date_pst` (`2026-11-29 02:26:10 America/Los_Angeles`).
///
/// One per answer: it remembers Los Angeles' offset per UTC hour (its transitions fall on whole
/// hours), so an answer of thousands of dates asks `TimeZone` a handful of times; the fields are
/// ``CivilTime`` arithmetic. Years outside ``CivilTime/supportedYears`` take Foundation's
/// `Calendar`, as every date did before.
final class ReceiptJSONDate {
  private static let pacificZone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0) ?? .current
  private static let utc: Calendar = calendar("GMT")
  private static let pacific: Calendar = calendar("America/Los_Angeles")
  private var pacificOffsets: [Int64: Int] = [:]
  /// The spellings of each instant already written: an answer repeats its dates (a purchase's
  /// original date is often its own, renewals share their original purchase's).
  private var spelled: [Double: (gmt: ReceiptJSON, ms: ReceiptJSON, pst: ReceiptJSON)] = [:]

  /// A date field's three keys, made once rather than per entry.
  struct Keys: Sendable {
    let gmt: String
    let ms: String
    let pst: String

    init(_ name: String) {
      gmt = name
      ms = name + "_ms"
      pst = name + "_pst"
    }
  }

  /// The three keys `name`, `name_ms` and `name_pst` for `date`, into `object`.
  func put(_ date: Date?, as keys: Keys, into object: inout [String: ReceiptJSON]) {
    guard let date else { return }
    let instant = date.timeIntervalSince1970
    let values: (gmt: ReceiptJSON, ms: ReceiptJSON, pst: ReceiptJSON)
    if let known = spelled[instant] {
      values = known
    } else {
      values = (.string(gmt(date)), .string(String(Int64((instant * 1000).rounded(.down)))), .string(pst(date)))
      spelled[instant] = values
    }
    object[keys.gmt] = values.gmt
    object[keys.ms] = values.ms
    object[keys.pst] = values.pst
  }

  /// `2026-11-29 10:26:10 Etc/GMT`.
  func gmt(_ date: Date) -> String {
    guard let seconds = Self.wholeSeconds(date), let text = Self.text(seconds, zone: " Etc/GMT") else {
      return Self.text(date, in: Self.utc, zone: "Etc/GMT")
    }
    return text
  }

  /// `2026-11-29 02:26:10 America/Los_Angeles`.
  func pst(_ date: Date) -> String {
    guard let seconds = Self.wholeSeconds(date) else { return Self.text(date, in: Self.pacific, zone: "America/Los_Angeles") }
    let hour = seconds >= 0 ? seconds / 3_600 : (seconds + 1) / 3_600 - 1
    let offset: Int
    if let known = pacificOffsets[hour] {
      offset = known
    } else {
      offset = Self.pacificZone.secondsFromGMT(for: date)
      pacificOffsets[hour] = offset
    }
    guard let text = Self.text(seconds + Int64(offset), zone: " America/Los_Angeles") else {
      return Self.text(date, in: Self.pacific, zone: "America/Los_Angeles")
    }
    return text
  }

  /// The whole seconds of `date`, rounded down as `Calendar` does.
  private static func wholeSeconds(_ date: Date) -> Int64? {
    Int64(exactly: date.timeIntervalSince1970.rounded(.down))
  }

  private static func text(_ seconds: Int64, zone: String) -> String? {
    let civil = CivilTime(seconds: seconds)
    guard CivilTime.supportedYears.contains(civil.year) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(19 + zone.utf8.count)
    civil.append(to: &bytes, separator: UInt8(ascii: " "))
    bytes.append(contentsOf: zone.utf8)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Foundation's answer: the reference the arithmetic matches, and the fallback.
  static func text(_ date: Date, in calendar: Calendar, zone: String) -> String {
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String {
      let number = value ?? 0
      return number < 10 ? "0\(number)" : "\(number)"
    }
    return "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) \(zone)"
  }

  private static func calendar(_ identifier: String) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    return calendar
  }
}
