import Foundation

/// A span of virtual time in a scenario: `30s`, `5m`, `2h`, `70d`, `2w`, or ISO 8601 (`P1M`, `PT90S`,
/// `P1Y2M3DT4H`). Months and years use calendar arithmetic, so `P1M` from 31 January lands on 28/29 February.
public struct ScenarioDuration: Sendable, Equatable {
  /// The span as calendar components (a month stays a month until it is applied to a date).
  public var components: DateComponents

  /// Parses `text`; nil when it is neither form, or longer than 10,000 years.
  public init?(_ text: String) {
    if let short = Self.parseShort(text) {
      components = short
    } else if let iso = Self.parseISO(text) {
      components = iso
    } else {
      return nil
    }
    guard Self.approximateSeconds(components) <= Self.longest else { return nil }
  }

  /// The longest span accepted, 10,000 years: far beyond any test, and small enough that the
  /// clock and the signed payloads' millisecond timestamps cannot overflow.
  static let longest: Double = 10_000 * 31_556_952
  /// The largest number in any one field (10,000 years in seconds). `DateComponents` reads
  /// `Int.max` back as "undefined", so huge numbers must be refused before they are stored.
  static let largestValue = 316_224_000_000

  private static func approximateSeconds(_ components: DateComponents) -> Double {
    let parts: [(Int?, Double)] = [
      (components.year, 31_556_952), (components.month, 2_629_746), (components.day, 86_400),
      (components.hour, 3_600), (components.minute, 60), (components.second, 1),
    ]
    return parts.reduce(0) { $0 + Double($1.0 ?? 0) * $1.1 }
  }

  /// The date `self` after `date`, in UTC.
  public func after(_ date: Date) -> Date {
    Self.calendar.date(byAdding: components, to: date) ?? date
  }

  private static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone.current
    return calendar
  }()

  private static func parseShort(_ text: String) -> DateComponents? {
    guard let unit = text.last, let value = Int(text.dropLast()), value >= 0, value <= largestValue else { return nil }
    var components = DateComponents()
    switch unit {
    case "s": components.second = value
    case "m": components.minute = value
    case "h": components.hour = value
    case "d": components.day = value
    case "w":
      let (days, overflow) = value.multipliedReportingOverflow(by: 7)
      guard !overflow else { return nil }
      components.day = days
    case "y": components.year = value
    default: return nil
    }
    return components
  }

  private static func parseISO(_ text: String) -> DateComponents? {
    guard text.hasPrefix("P"), text.count > 1 else { return nil }
    var components = DateComponents()
    var number = ""
    var inTime = false
    var sawAny = false
    for character in text.dropFirst() {
      if character.isNumber {
        number.append(character)
        continue
      }
      if character == "T" {
        guard number.isEmpty, !inTime else { return nil }
        inTime = true
        continue
      }
      guard let value = Int(number), value <= largestValue else { return nil }
      number = ""
      sawAny = true
      switch (character, inTime) {
      case ("Y", false): components.year = value
      case ("M", false): components.month = value
      case ("W", false), ("D", false):
        let (days, overflow) = value.multipliedReportingOverflow(by: character == "W" ? 7 : 1)
        let (sum, overflowSum) = (components.day ?? 0).addingReportingOverflow(days)
        guard !overflow, !overflowSum else { return nil }
        components.day = sum
      case ("H", true): components.hour = value
      case ("M", true): components.minute = value
      case ("S", true): components.second = value
      default: return nil
      }
    }
    return number.isEmpty && sawAny ? components : nil
  }
}
