import Foundation
import StoreEngine

/// Gets a lost connection back by ``PostgreSQLReconnectPolicy``, reporting each step as a
/// ``LedgerConnectionState``. Generic over the connection so the schedule is tested without a server.
///
/// The attempt count and the next due time survive a call that gave up (or, with no patience, one
/// that found no attempt due), so the back-off goes on across calls until a connect succeeds.
///
/// Without patience (the TUI) an attempt runs on another thread: a connect across a cut link can
/// take its whole `connect_timeout`, which the TUI's thread must not wait out. A later call picks
/// up the connection it made.
final class PostgreSQLReconnector<Connection> {
  /// Monotonic time, a way to wait and a way to run an attempt elsewhere, injected so tests neither
  /// sleep nor read the clock.
  struct Timing {
    var now: () -> ContinuousClock.Instant
    var sleep: (Duration) -> Void
    var spawn: (@escaping @Sendable () -> Void) -> Void

    static var real: Timing {
      Timing(
        now: { ContinuousClock.now }, sleep: { duration in Thread.sleep(forTimeInterval: duration.seconds) },
        spawn: { work in DispatchQueue.global().async(execute: work) })
    }
  }

  let policy: PostgreSQLReconnectPolicy
  private let timing: Timing
  private let connect: @Sendable () throws(PostgreSQLFailure) -> Connection
  /// What an attempt on another thread came to, until a call picks it up.
  private let parked = Locked<Result<Connection, PostgreSQLFailure>?>(nil)
  private var attemptInFlight = false
  private let report: (LedgerConnectionState) -> Void
  /// Attempts that failed since the connection was lost.
  private(set) var failedAttempts = 0
  private var due: ContinuousClock.Instant?
  private var lastError: PostgreSQLFailure?

  init(
    policy: PostgreSQLReconnectPolicy, timing: Timing = .real, report: @escaping (LedgerConnectionState) -> Void,
    connect: @escaping @Sendable () throws(PostgreSQLFailure) -> Connection
  ) {
    self.policy = policy
    self.timing = timing
    self.report = report
    self.connect = connect
  }

  /// Whether the connection is being got back (a loss was seen and no connect succeeded since).
  var isReconnecting: Bool { lastError != nil }

  /// A new connection after `failure` lost the old one.
  ///
  /// - Throws: the last failure when the patience ran out (reported as ``LedgerConnectionState/gaveUp(attempts:lastError:)``),
  ///   when no attempt is due and the policy may not wait, and at once when the failure is one a
  ///   reconnect cannot mend (a refused login, a missing database).
  func reconnect(after failure: PostgreSQLFailure) throws(PostgreSQLFailure) -> Connection {
    if lastError == nil { lastError = failure }
    if policy.patience == nil { return try attemptElsewhere() }
    let start = timing.now()
    while true {
      let last = lastError ?? failure
      guard !last.isPermanentConnectFailure else {
        lastError = nil
        throw last
      }
      let attempt = failedAttempts + 1
      let dueAt: ContinuousClock.Instant
      if let due {
        dueAt = due
      } else {
        let delay = policy.delay(before: attempt)
        if let patience = policy.patience, timing.now() + delay - start > patience {
          report(.gaveUp(attempts: failedAttempts, lastError: last.description))
          throw last
        }
        dueAt = timing.now() + delay
        due = dueAt
        report(.reconnecting(attempt: attempt, nextIn: delay, lastError: last.description))
      }
      let wait = dueAt - timing.now()
      if wait > .zero {
        guard let patience = policy.patience else { throw last }
        // A due time carried over from a call that gave up.
        if timing.now() + wait - start > patience {
          report(.gaveUp(attempts: failedAttempts, lastError: last.description))
          throw last
        }
        timing.sleep(wait)
      }
      do {
        let connection = try connect()
        failedAttempts = 0
        due = nil
        lastError = nil
        report(.connected)
        return connection
      } catch {
        lastError = error
        failedAttempts += 1
        due = nil
      }
    }
  }

  /// Without patience: takes a finished attempt's connection, or starts the next attempt on another
  /// thread when one is due; never waits.
  private func attemptElsewhere() throws(PostgreSQLFailure) -> Connection {
    let failure = lastError ?? PostgreSQLFailure(sqlState: nil, message: "the connection was lost")
    if let result = parked.withLock({ parked in defer { parked = nil }; return parked }) {
      attemptInFlight = false
      switch result {
      case .success(let connection):
        failedAttempts = 0
        due = nil
        lastError = nil
        report(.connected)
        return connection
      case .failure(let error):
        lastError = error
        failedAttempts += 1
        due = nil
        guard !error.isPermanentConnectFailure else { throw error }
      }
    }
    let last = lastError ?? failure
    guard !last.isPermanentConnectFailure else {
      lastError = nil
      throw last
    }
    guard !attemptInFlight else { throw last }
    let dueAt: ContinuousClock.Instant
    if let due {
      dueAt = due
    } else {
      let delay = policy.delay(before: failedAttempts + 1)
      dueAt = timing.now() + delay
      due = dueAt
      report(.reconnecting(attempt: failedAttempts + 1, nextIn: delay, lastError: last.description))
    }
    guard timing.now() >= dueAt else { throw last }
    attemptInFlight = true
    let connect = connect
    let parked = parked
    timing.spawn {
      let result = Result { () throws(PostgreSQLFailure) in try connect() }
      parked.withLock { $0 = result }
    }
    throw last
  }
}
