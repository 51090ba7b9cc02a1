/// A proleptic Gregorian date and time of day from a count of seconds, by integer arithmetic
/// (Howard Hinnant's `civil_from_days`/`days_from_civil`). verifyReceipt spells thousands of dates
/// per answer; Foundation's `Calendar.dateComponents` and ISO 8601 format styles cost tens of
/// microseconds each on Linux, this a few nanoseconds.
struct CivilTime: Equatable {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second: Int

  /// Years this type is used for; outside them callers keep Foundation's answer (its Gregorian
  /// calendar switches to Julian dates before 1582).
  static let supportedYears = 1900...9999

  /// The civil time `seconds` after 1970-01-01 00:00:00 (negative: before).
  init(seconds: Int64) {
    let days = seconds.floorDivided(by: 86_400)
    let inDay = Int(seconds - days * 86_400)
    hour = inDay / 3_600
    minute = inDay % 3_600 / 60
    second = inDay % 60
    let shifted = days + 719_468
    let era = shifted.floorDivided(by: 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
    month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
    year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
  }

  init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// Seconds since 1970-01-01 00:00:00 of this civil time (fields assumed in range).
  var secondsSince1970: Int64 {
    let shiftedYear = Int64(month <= 2 ? year - 1 : year)
    let era = shiftedYear.floorDivided(by: 400)
    let yearOfEra = shiftedYear - era * 400
    let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return days * 86_400 + Int64(hour) * 3_600 + Int64(minute) * 60 + Int64(second)
  }

  /// The number of days in `month` of `year`.
  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Appends `YYYY-MM-DD`, `separator`, `HH:MM:SS` as ASCII to `bytes`.
  func append(to bytes: inout [UInt8], separator: UInt8) {
    Self.digits(year, 4, &bytes)
    bytes.append(UInt8(ascii: "-"))
    Self.digits(month, 2, &bytes)
    bytes.append(UInt8(ascii: "-"))
    Self.digits(day, 2, &bytes)
    bytes.append(separator)
    Self.digits(hour, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    Self.digits(minute, 2, &bytes)
    bytes.append(UInt8(ascii: ":"))
    Self.digits(second, 2, &bytes)
  }

  private static func digits(_ value: Int, _ count: Int, _ bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      divisor /= 10
    }
  }
}

extension Int64 {
  /// Division rounding towards minus infinity (dates before 1970 belong to the earlier day).
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
