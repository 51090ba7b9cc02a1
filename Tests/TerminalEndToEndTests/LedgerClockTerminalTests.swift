import Foundation
import XCTest

/// The clock belongs to the data directory: the storefront opened where `run` left off continues
/// from the ledger's clock, and the next `run` continues from the storefront's (B3: it used to jump
/// to the wall clock and fire a catch-up renewal for every period in between).
final class LedgerClockTerminalTests: XCTestCase {
  func testTheStorefrontContinuesFromTheClockARunLeft() throws {
    let session = try TmuxSession()
    let script = FileManager.default.temporaryDirectory.appendingPathComponent("sf-clock-\(UUID().uuidString).scenario")
    try "account jake\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.premium.monthly\nfinish last\n"
      .write(to: script, atomically: true, encoding: .utf8)
    addTeardownBlock { try? FileManager.default.removeItem(at: script) }
    let run = try session.storefront(["run", script.path])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(run.output.hasPrefix("[2026-01-01T00:00:00Z]"), run.output)

    try session.launch()
    try session.waitFor("Clock 2026-01-01 00:00:0")
    // A few ticks later it has moved in real time from there, and nothing renewed on the way.
    try session.waitFor("Clock 2026-01-01 00:00:03")
    let screen = try session.screen()
    XCTAssertFalse(screen.contains("unfinished"), "catch-up renewals:\n\(screen)")
    try session.send("q")
    try session.waitFor("EXIT=0")
    let ledger = try session.ledger()
    XCTAssertEqual(ledger.count, 1, "no catch-up renewals: \(ledger)")

    // The next run continues from where the storefront left the clock, still on the first day.
    let next = try session.storefront(["run", script.path])
    XCTAssertEqual(next.status, 0, next.output)
    XCTAssertTrue(next.output.hasPrefix("[2026-01-01T00:00:0"), next.output)
    XCTAssertFalse(next.output.hasPrefix("[2026-01-01T00:00:00Z]"), "the clock went back:\n\(next.output)")
  }
}
