extension SKTestSession {
  /// How fast subscriptions renew, with Apple's raw values (`SKTestSession.h`). Periods are spans of
  /// the session's virtual clock; while a test waits, it follows the wall clock under an accelerated
  /// rate (``SKTestSession/timeRate``).
  public enum TimeRate: Int, Sendable, Hashable {
    case realTime = 0
    @available(*, deprecated, message: "Use real time or a time rate in terms of monthly renewals")
    case oneHourIsOneDay = 1
    @available(*, deprecated, message: "Use real time or a time rate in terms of monthly renewals")
    case thirtyMinutesIsOneDay = 2
    @available(*, deprecated, message: "Use real time or a time rate in terms of monthly renewals")
    case fiveMinutesIsOneDay = 3
    @available(*, deprecated, renamed: "monthlyRenewalEveryThirtyMinutes")
    case oneMinuteIsOneDay = 4
    @available(*, deprecated, renamed: "monthlyRenewalEveryFifteenMinutes")
    case thirtySecondsIsOneDay = 5
    @available(*, deprecated, renamed: "monthlyRenewalEveryThirtySeconds")
    case oneSecondIsOneDay = 6
    case monthlyRenewalEveryHour = 10
    case monthlyRenewalEveryThirtyMinutes = 11
    case monthlyRenewalEveryFifteenMinutes = 12
    case monthlyRenewalEveryFiveMinutes = 13
    case monthlyRenewalEveryThirtySeconds = 15
    case oneRenewalEveryFifteenMinutes = 1000
    case oneRenewalEveryFiveMinutes = 1001
    case oneRenewalEveryMinute = 1002
    case oneRenewalEveryThirtySeconds = 1003
    case oneRenewalEveryTenSeconds = 1004
    case oneRenewalEveryTwoSeconds = 1005
  }
}
