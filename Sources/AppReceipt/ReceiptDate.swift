import Foundation

/// The receipt's date text: RFC 3339 in UTC without fractions (`2026-01-01T00:00:00Z`), as Apple writes it.
enum ReceiptDate {
  static func rfc3339(_ date: Date) -> String {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(.iso8601)
  }

  static func parse(_ text: String) -> Date? {
    try? Date(text, strategy: .iso8601)
  }
}
