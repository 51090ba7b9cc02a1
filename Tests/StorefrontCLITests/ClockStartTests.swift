import Foundation
import XCTest

@testable import StorefrontCLI

/// The virtual clock belongs to the ledger: only a fresh one takes a start (`--clock-start`,
/// `$STOREFRONT_CLOCK_START`, the front end's default); a start given for a ledger with a clock is refused.
final class ClockStartTests: XCTestCase {
  private let epoch = Date(timeIntervalSince1970: 1_767_225_600)

  func testStartsParse() throws {
    XCTAssertEqual(ClockStart(parsing: "now"), .now)
    XCTAssertEqual(ClockStart(parsing: "2026-01-01"), .date(epoch))
    XCTAssertEqual(ClockStart(parsing: "2026-01-01T09:30:00Z"), .date(epoch.addingTimeInterval(9.5 * 3600)))
    XCTAssertEqual(ClockStart(parsing: "2026-01-01T18:30:00+09:00"), .date(epoch.addingTimeInterval(9.5 * 3600)))
    for bad in ["", "tomorrow", "2026-13-01", "2026-01-01T09:30", "01/01/2026"] { XCTAssertNil(ClockStart(parsing: bad), bad) }
  }

  func testTheOptionBeatsTheEnvironmentWhichBeatsTheFrontEndsDefault() throws {
    var global = GlobalOptions()
    let now = epoch.addingTimeInterval(86_400 * 300)
    XCTAssertEqual(
      try ClockChoice.resolve(global, environment: [:], default: .now, now: now), ClockChoice(date: now, source: .frontEndDefault))
    XCTAssertEqual(
      try ClockChoice.resolve(global, environment: ["STOREFRONT_CLOCK_START": "2026-01-01"], default: .now, now: now),
      ClockChoice(date: epoch, source: .environment))
    global.clockStart = .now
    XCTAssertEqual(
      try ClockChoice.resolve(global, environment: ["STOREFRONT_CLOCK_START": "2026-01-01"], default: .scenarioEpoch, now: now),
      ClockChoice(date: now, source: .option("now")))
    XCTAssertThrowsError(try ClockChoice.resolve(GlobalOptions(), environment: ["STOREFRONT_CLOCK_START": "soon"], default: .now)) { error in
      let failure = error as? CLIFailure
      XCTAssertEqual(failure?.exitCode, .configuration)
      XCTAssertTrue(failure?.message?.contains("$STOREFRONT_CLOCK_START is 'soon'") == true, "\(error)")
    }
  }

  func testALedgerWithAClockKeepsItAndRefusesAnExplicitStart() throws {
    let ledgerClock = epoch.addingTimeInterval(7 * 86_400)
    let later = epoch.addingTimeInterval(86_400 * 300)
    // Fresh: the choice, whoever made it.
    XCTAssertEqual(try ClockChoice(date: later, source: .frontEndDefault).start(ledgerClock: nil, ledgerName: "L"), later)
    XCTAssertEqual(try ClockChoice(date: later, source: .option("now")).start(ledgerClock: nil, ledgerName: "L"), later)
    // A clock already: every front end continues from it (the TUI's wall-clock default gives way).
    XCTAssertEqual(try ClockChoice(date: later, source: .frontEndDefault).start(ledgerClock: ledgerClock, ledgerName: "L"), ledgerClock)
    XCTAssertEqual(try ClockChoice(date: later, source: .environment).start(ledgerClock: ledgerClock, ledgerName: "L"), ledgerClock)
    XCTAssertEqual(try ClockChoice(date: later, source: .option("now")).followed.start(ledgerClock: ledgerClock, ledgerName: "L"), ledgerClock)
    XCTAssertThrowsError(try ClockChoice(date: later, source: .option("now")).start(ledgerClock: ledgerClock, ledgerName: "/d/ledger.sqlite")) {
      error in
      let failure = error as? CLIFailure
      XCTAssertEqual(failure?.exitCode, .usage)
      XCTAssertEqual(
        failure?.message,
        "--clock-start now applies only to a fresh ledger, and /d/ledger.sqlite already has a clock (at 2026-01-08T00:00:00Z), which every front end continues from. Leave --clock-start out, or use a new --data-dir.")
    }
  }

  /// `run` on a fresh data directory starts at --clock-start; the ledger keeps that clock for the
  /// next run, which refuses a second --clock-start.
  func testRunStartsAFreshLedgerAtTheOptionAndTheNextRunContinues() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let script = directory.appendingPathComponent("buy.scenario")
    try "account jake\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.shopping\nfinish last\n".write(to: script, atomically: true, encoding: .utf8)
    let data = directory.appendingPathComponent("data").path
    let first = CLIRun(["run", script.path, "--data-dir", data, "--clock-start", "2027-05-01T08:00:00Z"])
    XCTAssertEqual(first.code, 0, first.errorOutput)
    XCTAssertTrue(first.output.hasPrefix("[2027-05-01T08:00:00Z] accountChanged account=jake"), first.output)
    let again = CLIRun(["run", script.path, "--data-dir", data, "--clock-start", "2026-01-01"])
    XCTAssertEqual(again.code, 64, again.errorOutput)
    XCTAssertTrue(again.errorOutput.hasPrefix("Error: --clock-start 2026-01-01T00:00:00Z applies only to a fresh ledger"), again.errorOutput)
    XCTAssertEqual(again.output, "", "nothing ran")
    // The environment's start is a default for new ledgers only: this one keeps its clock.
    let next = CLIRun(["run", script.path, "--data-dir", data], environment: ["HOME": "/home/tester", "STOREFRONT_CLOCK_START": "2026-01-01"])
    XCTAssertEqual(next.code, 0, next.errorOutput)
    XCTAssertTrue(next.output.hasPrefix("[2027-05-01T08:00:00Z]"), next.output)
    // Without any start, a fresh ledger of run starts at 2026-01-01 as scenarios expect.
    let fresh = CLIRun(["run", script.path, "--data-dir", directory.appendingPathComponent("fresh").path])
    XCTAssertTrue(fresh.output.hasPrefix("[2026-01-01T00:00:00Z]"), fresh.output)
    XCTAssertEqual(CLIRun(["--clock-start", "someday", "run", script.path]).code, 64)
  }

  /// The interactive storefront's store on a ledger `run` used continues from the ledger's clock,
  /// not the wall clock (B3: the jump fired 11 catch-up renewals).
  func testTheInteractiveStartGivesWayToTheLedgersClock() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let script = directory.appendingPathComponent("sub.scenario")
    try "account jake\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.premium.monthly\nfinish last\n"
      .write(to: script, atomically: true, encoding: .utf8)
    let data = directory.appendingPathComponent("data").path
    XCTAssertEqual(CLIRun(["run", script.path, "--data-dir", data]).code, 0)
    let catalog = try XCTUnwrap(try? CatalogSource.load(nil).get().catalog)
    var global = GlobalOptions()
    global.dataDirectory = data
    let environment = ["HOME": "/home/tester"]
    let store = try LiveStore.open(
      catalog: catalog, global: global, environment: environment,
      clock: ClockChoice.resolve(global, environment: environment, default: .now))
    defer { store.ledger.close() }
    XCTAssertEqual(store.queue.now, epoch)
    XCTAssertEqual(try store.ledger.allTransactions().count, 1, "no catch-up renewals")
  }
}
