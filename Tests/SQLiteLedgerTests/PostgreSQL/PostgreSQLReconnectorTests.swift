import Foundation
import StoreEngine
import XCTest

@testable import PostgreSQLLedger

/// The back-off schedule and the reconnect decisions, on a fake clock and a fake connection: no
/// server, no sleeping.
final class PostgreSQLReconnectorTests: XCTestCase {
  /// A clock that moves only when the reconnector sleeps.
  private final class FakeClock {
    let origin = ContinuousClock.now
    var elapsed = Duration.zero
    var sleeps: [Duration] = []
    var timing: PostgreSQLReconnector<Int>.Timing {
      .init(now: { self.origin + self.elapsed }, sleep: { self.sleeps.append($0); self.elapsed += $0 }, spawn: { $0() })
    }
  }

  private let lost = PostgreSQLFailure(sqlState: nil, message: "server closed the connection unexpectedly")

  func testTheDelayDoublesFromAHundredMillisecondsToFiveSeconds() {
    let policy = PostgreSQLReconnectPolicy.commandLine
    XCTAssertEqual(
      (1...9).map { policy.delay(before: $0) },
      [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600), .milliseconds(3200),
       .seconds(5), .seconds(5), .seconds(5)])
    XCTAssertEqual(policy.delay(before: 1000), .seconds(5), "no overflow far out")
    XCTAssertEqual(policy.patience, .seconds(60))
    XCTAssertNil(PostgreSQLReconnectPolicy.interactive.patience)
  }

  func testItWaitsOutTheScheduleAndReportsEachAttemptThenTheReconnect() throws {
    let clock = FakeClock()
    let failuresLeft = Locked(3)
    var states: [LedgerConnectionState] = []
    let reconnector = PostgreSQLReconnector<Int>(
      policy: .commandLine, timing: clock.timing, report: { states.append($0) }
    ) { () throws(PostgreSQLFailure) in
      let fails = failuresLeft.withLock { left in
        defer { left = max(0, left - 1) }
        return left > 0
      }
      if fails { throw PostgreSQLFailure(sqlState: nil, message: "connection refused") }
      return 42
    }
    XCTAssertEqual(try reconnector.reconnect(after: lost), 42)
    XCTAssertEqual(clock.sleeps, [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)])
    XCTAssertEqual(
      states,
      [
        .reconnecting(attempt: 1, nextIn: .milliseconds(100), lastError: lost.description),
        .reconnecting(attempt: 2, nextIn: .milliseconds(200), lastError: "connection refused"),
        .reconnecting(attempt: 3, nextIn: .milliseconds(400), lastError: "connection refused"),
        .reconnecting(attempt: 4, nextIn: .milliseconds(800), lastError: "connection refused"),
        .connected,
      ])
    XCTAssertEqual(reconnector.failedAttempts, 0)
    XCTAssertFalse(reconnector.isReconnecting)
  }

  func testItGivesUpBeforeThePatienceRunsOutAndGoesOnFromThereNextCall() throws {
    let clock = FakeClock()
    let connects = Locked(0)
    var states: [LedgerConnectionState] = []
    let reconnector = PostgreSQLReconnector<Int>(
      policy: PostgreSQLReconnectPolicy(patience: .seconds(1)), timing: clock.timing, report: { states.append($0) }
    ) { () throws(PostgreSQLFailure) in
      connects.withLock { $0 += 1 }
      throw PostgreSQLFailure(sqlState: nil, message: "connection refused")
    }
    XCTAssertThrowsError(try reconnector.reconnect(after: lost))
    // 0.1 + 0.2 + 0.4 waited; the fourth attempt's 0.8 s would end past the second.
    XCTAssertEqual(clock.sleeps, [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
    XCTAssertEqual(connects.withLock { $0 }, 3)
    XCTAssertEqual(states.last, .gaveUp(attempts: 3, lastError: "connection refused"))
    XCTAssertTrue(reconnector.isReconnecting)
    clock.sleeps = []
    XCTAssertThrowsError(try reconnector.reconnect(after: lost))
    XCTAssertEqual(clock.sleeps.first, .milliseconds(800), "the back-off goes on where it stopped")
  }

  /// The TUI's thread never waits: an attempt runs elsewhere when due, and a later call takes its result.
  func testWithoutPatienceItNeverWaitsAndTriesElsewhereOnlyWhenAnAttemptIsDue() throws {
    let clock = FakeClock()
    let outcomes = Locked<[Result<Int, PostgreSQLFailure>]>([.failure(PostgreSQLFailure(sqlState: nil, message: "refused")), .success(7)])
    var states: [LedgerConnectionState] = []
    let reconnector = PostgreSQLReconnector<Int>(
      policy: .interactive, timing: clock.timing, report: { states.append($0) }
    ) { () throws(PostgreSQLFailure) in
      try outcomes.withLock { $0.removeFirst() }.get()
    }
    XCTAssertThrowsError(try reconnector.reconnect(after: lost), "the first attempt is not due yet")
    XCTAssertThrowsError(try reconnector.reconnect(after: lost))
    XCTAssertEqual(outcomes.withLock { $0.count }, 2, "no attempt yet")
    XCTAssertEqual(states, [.reconnecting(attempt: 1, nextIn: .milliseconds(100), lastError: lost.description)], "told once")
    clock.elapsed += .milliseconds(100)
    XCTAssertThrowsError(try reconnector.reconnect(after: lost), "attempt 1 starts elsewhere; this call does not wait for it")
    XCTAssertEqual(outcomes.withLock { $0.count }, 1)
    XCTAssertThrowsError(try reconnector.reconnect(after: lost), "attempt 1 failed; attempt 2 is scheduled")
    XCTAssertEqual(states.last, .reconnecting(attempt: 2, nextIn: .milliseconds(200), lastError: "refused"))
    clock.elapsed += .milliseconds(200)
    XCTAssertThrowsError(try reconnector.reconnect(after: lost), "attempt 2 starts")
    XCTAssertEqual(try reconnector.reconnect(after: lost), 7, "and its connection is taken")
    XCTAssertEqual(states.last, .connected)
    XCTAssertEqual(clock.sleeps, [], "never slept")
  }

  func testARefusedLoginIsNotRetried() {
    let clock = FakeClock()
    let connects = Locked(0)
    let reconnector = PostgreSQLReconnector<Int>(policy: .commandLine, timing: clock.timing, report: { _ in }) {
      () throws(PostgreSQLFailure) in
      connects.withLock { $0 += 1 }
      return 1
    }
    let refused = PostgreSQLFailure(sqlState: nil, message: "FATAL:  password authentication failed for user \"qa\"")
    XCTAssertThrowsError(try reconnector.reconnect(after: refused)) { error in
      XCTAssertEqual((error as? PostgreSQLFailure)?.message, refused.message)
    }
    XCTAssertEqual(connects.withLock { $0 }, 0)
    XCTAssertEqual(clock.sleeps, [])
  }

  func testWhichFailuresAreALostConnection() {
    for state in [nil, "08006", "08001", "57P01", "57P02", "57P03"] {
      XCTAssertTrue(PostgreSQLFailure(sqlState: state, message: "x").isConnectionLoss, "\(state ?? "none")")
    }
    for state in ["40001", "40P01", "23505", "25006", "28P01"] {
      XCTAssertFalse(PostgreSQLFailure(sqlState: state, message: "x").isConnectionLoss, state)
    }
    XCTAssertTrue(PostgreSQLFailure(sqlState: nil, message: "FATAL:  database \"nope\" does not exist").isPermanentConnectFailure)
    XCTAssertTrue(PostgreSQLFailure(sqlState: "28P01", message: "x").isPermanentConnectFailure)
    XCTAssertFalse(
      PostgreSQLFailure(sqlState: nil, message: "connection to server at \"10.0.0.1\", port 5432 failed: Connection refused")
        .isPermanentConnectFailure)
    XCTAssertFalse(PostgreSQLFailure(sqlState: nil, message: "FATAL:  the database system is starting up").isPermanentConnectFailure)
  }
}
