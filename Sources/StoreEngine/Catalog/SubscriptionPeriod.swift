import Foundation

/// A subscription or offer period from an ISO 8601 duration of one unit: `P3D`, `P1W`, `P1M`, `P1Y`.
public struct SubscriptionPeriod: Sendable, Hashable, Codable, CustomStringConvertible {
  public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
    case day = "D"
    case week = "W"
    case month = "M"
    case year = "Y"
  }

  public var value: Int
  public var unit: Unit

  public init(value: Int, unit: Unit) {
    self.value = value
    self.unit = unit
  }

  /// Parses `P<n><D|W|M|Y>`; returns nil for anything else (including `P0M`, `PT1H`, `P1M2D`).
  public init?(iso8601 text: String) {
    guard text.count >= 3, text.first == "P", let unitChar = text.last,
      let unit = Unit(rawValue: String(unitChar)),
      let value = Int(text.dropFirst().dropLast()), value > 0
    else { return nil }
    self.init(value: value, unit: unit)
  }

  /// `P1M` style text.
  public var iso8601: String { "P\(value)\(unit.rawValue)" }
  public var description: String { iso8601 }

  /// The date one period after `date`, in UTC calendar arithmetic (months stay on the same day).
  public func advance(_ date: Date, times: Int = 1) -> Date {
    var components = DateComponents()
    let count = value * times
    switch unit {
    case .day: components.day = count
    case .week: components.day = count * 7
    case .month: components.month = count
    case .year: components.year = count
    }
    return Self.utc.date(byAdding: components, to: date) ?? date.addingTimeInterval(approximateSeconds * Double(times))
  }

  /// Rough length in seconds (30-day months), for ordering and pro-rating, never for expiry dates.
  public var approximateSeconds: TimeInterval {
    let day: TimeInterval = 86_400
    switch unit {
    case .day: return Double(value) * day
    case .week: return Double(value) * 7 * day
    case .month: return Double(value) * 30 * day
    case .year: return Double(value) * 365 * day
    }
  }

  /// Human text: "1 month", "3 days".
  public var readable: String {
    let name: String
    switch unit {
    case .day: name = "day"
    case .week: name = "week"
    case .month: name = "month"
    case .year: name = "year"
    }
    return value == 1 ? "1 \(name)" : "\(value) \(name)s"
  }

  private static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone.current
    return calendar
  }()
}
