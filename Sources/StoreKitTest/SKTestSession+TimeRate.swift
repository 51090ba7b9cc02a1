extension SKTestSession {
  /// How fast subscriptions renew, with Apple's raw values. Periods are spans of the session's
  /// virtual clock, which moves only through ``SKTestSession/advance(by:)``.
  public enum TimeRate: Int, Sendable, Hashable, CaseIterable {
    case realTime = 0
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
