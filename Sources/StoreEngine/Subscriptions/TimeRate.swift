import Foundation

/// How fast subscription time runs: Xcode's `SKTestSession.TimeRate` presets and the sandbox's rates.
///
/// Under an accelerated rate a period lasts a fixed span of (virtual) clock time, exactly as Xcode
/// writes such short `expiresDate`s into its transactions. Xcode's rates are `SKTestSession.TimeRate`'s (Apple's `SKTestSession.h`); the sandbox's are App Store Connect's.
public struct TimeRate: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// `SKTestTimeRate` raw value; sandbox rates use 2000 + minutes per month.
  public let rawValue: Int
  public let name: String
  /// Seconds per period unit for monthly-scaled rates: week, month, 2-month, 3-month, 6-month, year.
  let scaled: [TimeInterval]?
  /// Every period lasts this long (the fixed "one renewal every …" rates).
  let fixed: TimeInterval?
  /// Renewals before auto-renew stops (the sandbox's 12), nil for unlimited.
  public let renewalCap: Int?

  public var description: String { name }

  public static let realTime = TimeRate(rawValue: 0, name: "real-time", scaled: nil, fixed: nil, renewalCap: nil)

  /// All presets, by their scenario names.
  public static let all: [TimeRate] = [
    realTime,
    // Xcode's first rates (deprecated in iOS 15.2, still declared): a day lasts an hour, 30 or 5 minutes.
    scaledRate(1, "day-every-hour", [25_200, 108_000, 216_000, 324_000, 648_000, 1_314_000]),
    scaledRate(2, "day-every-30m", [12_600, 54_000, 108_000, 162_000, 324_000, 657_000]),
    scaledRate(3, "day-every-5m", [2_100, 9_000, 18_000, 27_000, 54_000, 109_500]),
    scaledRate(10, "monthly-every-hour", [900, 3600, 7200, 10800, 21600, 43200]),
    scaledRate(11, "monthly-every-30m", [600, 1800, 3600, 5400, 10800, 21600]),
    scaledRate(12, "monthly-every-15m", [300, 900, 1800, 2700, 5400, 10800]),
    scaledRate(13, "monthly-every-5m", [180, 300, 600, 900, 1800, 3600]),
    scaledRate(15, "monthly-every-30s", [10, 30, 60, 90, 180, 360]),
    fixedRate(1000, "every-15m", 900),
    fixedRate(1001, "every-5m", 300),
    fixedRate(1002, "every-1m", 60),
    fixedRate(1003, "every-30s", 30),
    fixedRate(1004, "every-10s", 10),
    fixedRate(1005, "every-2s", 2),
    sandboxRate(3, [180, 180, 360, 540, 1080, 2160]),
    sandboxRate(5, [180, 300, 600, 900, 1800, 3600]),
    sandboxRate(15, [300, 900, 1800, 2700, 5400, 10800]),
    sandboxRate(30, [600, 1800, 3600, 5400, 10800, 21600]),
    sandboxRate(60, [900, 3600, 7200, 10800, 21600, 43200]),
  ]

  /// The preset with this raw value (deprecated `…IsOneDay` rates map to their replacements).
  public static func preset(rawValue: Int) -> TimeRate? {
    let replacements = [4: 11, 5: 12, 6: 15]
    let value = replacements[rawValue] ?? rawValue
    return all.first { $0.rawValue == value }
  }

  public static func preset(named name: String) -> TimeRate? {
    all.first { $0.name == name } ?? Int(name).flatMap { preset(rawValue: $0) }
  }

  /// The end of a period that starts at `start`.
  public func end(of period: SubscriptionPeriod, from start: Date, times: Int = 1) -> Date {
    if let fixed { return start.addingTimeInterval(fixed * Double(times)) }
    guard let scaled else { return period.advance(start, times: times) }
    let months: Double =
      switch period.unit {
      case .day: Double(period.value) / 30
      case .week: Double(period.value) / 4.345
      case .month: Double(period.value)
      case .year: Double(period.value) * 12
      }
    let seconds: TimeInterval
    if period.unit == .week && period.value == 1 {
      seconds = scaled[0]
    } else if let index = [1.0, 2, 3, 6, 12].firstIndex(of: months) {
      seconds = scaled[index + 1]
    } else {
      seconds = scaled[1] * months
    }
    return start.addingTimeInterval(seconds * Double(times))
  }

  /// How long billing retry lasts before the subscription expires.
  public var billingRetryDuration: TimeInterval {
    if let fixed { return fixed * 2 }
    guard let scaled else { return 60 * 86_400 }
    return scaled[1] * 2
  }

  /// The grace window after a failed renewal (16 days, or 6 for weekly, in real time).
  public func gracePeriod(for period: SubscriptionPeriod) -> TimeInterval {
    let weekly = period.unit == .week || (period.unit == .day && period.value <= 7)
    if let fixed { return fixed }
    guard let scaled else { return (weekly ? 6 : 16) * 86_400 }
    return weekly ? scaled[0] * 6 / 7 : scaled[1] / 2
  }

  private static func scaledRate(_ raw: Int, _ name: String, _ table: [TimeInterval]) -> TimeRate {
    TimeRate(rawValue: raw, name: name, scaled: table, fixed: nil, renewalCap: nil)
  }

  private static func fixedRate(_ raw: Int, _ name: String, _ seconds: TimeInterval) -> TimeRate {
    TimeRate(rawValue: raw, name: name, scaled: nil, fixed: seconds, renewalCap: nil)
  }

  private static func sandboxRate(_ minutes: Int, _ table: [TimeInterval]) -> TimeRate {
    TimeRate(rawValue: 2000 + minutes, name: "sandbox-\(minutes)m", scaled: table, fixed: nil, renewalCap: 12)
  }
}
