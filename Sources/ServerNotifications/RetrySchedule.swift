import Foundation

/// When a failed notification is tried again, on the virtual clock.
public struct RetrySchedule: Sendable, Equatable {
  /// The wait after each failed attempt, in order; after the last, no more attempts.
  public var waits: [TimeInterval]

  public init(waits: [TimeInterval]) { self.waits = waits }

  /// Apple's Production schedule: +1, +12, +24, +48 and +72 hours after the previous attempt (six attempts).
  public static let production = RetrySchedule(waits: [1, 12, 24, 48, 72].map { Double($0) * 3600 })
  /// Apple's Sandbox: one attempt.
  public static let once = RetrySchedule(waits: [])

  /// When attempt `attempts + 1` is due after `attempts` failed ones, the last at `date`; nil when none is left.
  public func nextAttempt(afterFailed attempts: Int, lastAt date: Date) -> Date? {
    guard attempts >= 1, attempts <= waits.count else { return nil }
    return date.addingTimeInterval(waits[attempts - 1])
  }
}
