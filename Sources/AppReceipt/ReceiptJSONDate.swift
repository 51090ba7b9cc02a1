import Foundation

/// verifyReceipt's three spellings of a date: `_date` (`2026-11-29 10:26:10 Etc/GMT`), `_date_ms`
/// (milliseconds, a string) and `_date_pst` (`2026-11-29 02:26:10 America/Los_Angeles`).
enum ReceiptJSONDate {
  private static let utc: Calendar = calendar("GMT")
  private static let pacific: Calendar = calendar("America/Los_Angeles")

  /// The three keys `name`, `name_ms` and `name_pst` for `date`, into `object`.
  static func put(_ date: Date?, as name: String, into object: inout [String: ReceiptJSON]) {
    guard let date else { return }
    object[name] = .string(text(date, in: utc, zone: "Etc/GMT"))
    object[name + "_ms"] = .string(String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down))))
    object[name + "_pst"] = .string(text(date, in: pacific, zone: "America/Los_Angeles"))
  }

  private static func text(_ date: Date, in calendar: Calendar, zone: String) -> String {
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
