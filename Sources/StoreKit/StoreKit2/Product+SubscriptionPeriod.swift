import Foundation
internal import StoreEngine

extension Product {
  /// A subscription period: a number of units.
  public struct SubscriptionPeriod: Equatable, Hashable, Sendable {
    /// A period's unit.
    public enum Unit: Int, Equatable, Hashable, Sendable, CaseIterable {
      case day
      case week
      case month
      case year
    }

    public let unit: Unit
    public let value: Int

    init(_ period: StoreEngine.SubscriptionPeriod) {
      self.init(value: period.value, unit: Unit(period.unit))
    }

    init(value: Int, unit: Unit) {
      self.value = value
      self.unit = unit
    }

    public static var weekly: SubscriptionPeriod { SubscriptionPeriod(value: 1, unit: .week) }
    public static var monthly: SubscriptionPeriod { SubscriptionPeriod(value: 1, unit: .month) }
    public static var yearly: SubscriptionPeriod { SubscriptionPeriod(value: 1, unit: .year) }
    public static var everyThreeDays: SubscriptionPeriod { SubscriptionPeriod(value: 3, unit: .day) }
    public static var everyTwoWeeks: SubscriptionPeriod { SubscriptionPeriod(value: 2, unit: .week) }
    public static var everyTwoMonths: SubscriptionPeriod { SubscriptionPeriod(value: 2, unit: .month) }
    public static var everyThreeMonths: SubscriptionPeriod { SubscriptionPeriod(value: 3, unit: .month) }
    public static var everySixMonths: SubscriptionPeriod { SubscriptionPeriod(value: 6, unit: .month) }

    /// The dates one period covers from `referenceDate` (calendar arithmetic: a month from
    /// January 31 ends on the last day of February).
    public func dateRange(referenceDate: Date = .now) -> Range<Date> {
      let end = Calendar.current.date(byAdding: DateComponents(subscriptionPeriod: self), to: referenceDate) ?? referenceDate
      return referenceDate..<max(end, referenceDate)
    }

    /// The period formatted by a style of date ranges (`Date.ComponentsFormatStyle`: "1 month").
    public func formatted<S: FormatStyle>(_ format: S, referenceDate: Date = .now) -> S.FormatOutput where S.FormatInput == Range<Date> {
      format.format(dateRange(referenceDate: referenceDate))
    }

    /// The period formatted by a style of durations (`Duration.UnitsFormatStyle`), its length from
    /// `referenceDate`.
    public func formatted<S: FormatStyle>(_ format: S, referenceDate: Date = .now) -> S.FormatOutput where S.FormatInput == Duration {
      let range = dateRange(referenceDate: referenceDate)
      return format.format(.seconds(range.upperBound.timeIntervalSince(range.lowerBound)))
    }
  }
}

extension Product.SubscriptionPeriod: CustomDebugStringConvertible {
  public var debugDescription: String { "SubscriptionPeriod(value: \(value), unit: \(unit.debugDescription))" }
}

extension Product.SubscriptionPeriod.Unit {
  init(_ unit: StoreEngine.SubscriptionPeriod.Unit) {
    switch unit {
    case .day: self = .day
    case .week: self = .week
    case .month: self = .month
    case .year: self = .year
    }
  }

  /// The unit's name for the user ("Day", "Week"…).
  public var localizedDescription: String {
    switch self {
    case .day: "Day"
    case .week: "Week"
    case .month: "Month"
    case .year: "Year"
    }
  }

  /// The unit formatted by `format`.
  public func formatted<S: Foundation.FormatStyle>(_ format: S) -> S.FormatOutput where S.FormatInput == Product.SubscriptionPeriod.Unit {
    format.format(self)
  }

  /// Formats a unit as its name for a locale ("month"; the forms Foundation's `DateComponentsFormatter`
  /// has on Apple's platforms are not on Linux, so the names are English whatever the locale).
  public struct FormatStyle: Foundation.FormatStyle, Hashable, Sendable {
    public typealias FormatInput = Product.SubscriptionPeriod.Unit
    public typealias FormatOutput = String
    var localeIdentifier: String

    init(locale: Locale = .autoupdatingCurrent) { localeIdentifier = locale.identifier }

    public func format(_ value: Product.SubscriptionPeriod.Unit) -> String { value.localizedDescription.lowercased() }

    public func locale(_ locale: Locale) -> FormatStyle { FormatStyle(locale: locale) }

    enum CodingKeys: String, CodingKey { case locale }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(localeIdentifier, forKey: .locale)
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      localeIdentifier = try container.decode(String.self, forKey: .locale)
    }
  }
}

extension Product.SubscriptionPeriod.Unit: CustomDebugStringConvertible {
  public var debugDescription: String {
    switch self {
    case .day: "day"
    case .week: "week"
    case .month: "month"
    case .year: "year"
    }
  }
}

extension Product.SubscriptionPeriod.Unit: Comparable {
  /// Shorter units first: day < week < month < year.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Product {
  // `subscriptionPeriodFormatStyle: Date.ComponentsFormatStyle` is not declared: Linux Foundation's
  // `Date.ComponentsFormatStyle` is an empty shell (no initializer, not a `FormatStyle`).

  /// A style that formats a period's unit in the session's locale.
  public var subscriptionPeriodUnitFormatStyle: Product.SubscriptionPeriod.Unit.FormatStyle {
    Product.SubscriptionPeriod.Unit.FormatStyle(locale: Locale(identifier: localeIdentifier))
  }
}

extension DateComponents {
  /// The components of one subscription period (a week is 7 days, as the store bills it).
  public init(subscriptionPeriod: Product.SubscriptionPeriod) {
    self.init()
    switch subscriptionPeriod.unit {
    case .day: day = subscriptionPeriod.value
    case .week: day = subscriptionPeriod.value * 7
    case .month: month = subscriptionPeriod.value
    case .year: year = subscriptionPeriod.value
    }
  }
}
