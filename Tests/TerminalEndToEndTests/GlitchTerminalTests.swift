import Foundation
import StorefrontProcessTestSupport
import XCTest

/// The Settings rows of the real store's glitches through a real terminal (issue 36, DECISIONS §46):
/// each starts off and Enter cycles it off → next → on → 1 in 5 (seed 1) → off.
final class GlitchTerminalTests: XCTestCase {
  func testGlitchRowsStartOffAndCycle() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("[ Restore Purchases ]")
    try session.send("3")
    try session.waitFor("Age rating code")
    // Rows after the age rating code (row 20): the six glitches, in order.
    let labels = [
      "Glitch: cancelled after success", "Glitch: sheet never appears", "Glitch: products fail to load",
      "Glitch: daemon connection drops", "Glitch: Transaction.updates late", "Glitch: renewal receipt dialog",
    ]
    for (offset, label) in labels.enumerated() {
      try session.set(label, row: 21 + offset, to: "next")
    }
    try session.set("Glitch: daemon connection drops", row: 24, to: "on")
    try session.set("Glitch: daemon connection drops", row: 24, to: "1")
    let screen = try session.screen()
    XCTAssertTrue(screen.contains("1-in 5 seed 1"), screen)
    try session.set("Glitch: daemon connection drops", row: 24, to: "off")
    try session.send("q")
    try session.waitFor("EXIT=0")
  }

  /// What the app gets, in the Log pane: with cancelled-after-success switched on in Settings, the
  /// simulated app's purchase succeeds and its StoreKit 2 view says `.userCancelled`, then the update.
  func testTheLogPaneShowsTheCancelledPurchaseThatSucceeded() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("[ Restore Purchases ]")
    try session.set("Glitch: cancelled after success", row: 21, to: "next")
    try session.buy(row: 0)
    try session.send("4", "s")
    try session.waitFor("StoreKit 2 view:")
    try session.waitFor("userCancelled")
    try session.waitFor("Transaction.updates:")
    try session.send("q")
    try session.waitFor("EXIT=0")
  }
}
