import Foundation
import StorefrontProcessTestSupport
import XCTest

/// A parent withdraws consent from the Settings pane, through a real terminal: after a confirmation
/// the outbox holds RESCIND_CONSENT for the app's server (issue 36).
final class ConsentTerminalTests: XCTestCase {
  func testWithdrawingConsentInSettingsQueuesRescindConsent() throws {
    let session = try TmuxSession()
    let url = try session.storefront(["notifications", "url", "http://127.0.0.1:9/notifications"])
    XCTAssertEqual(url.status, 0, url.output)
    try session.launch("--account mina")
    try session.waitFor("[ Restore Purchases ]")
    try session.send("3")
    // The Settings pane is up (Parental consent itself is below the first screen since the glitch rows, §46).
    try session.waitFor("Age rating code")
    // From the last row up to it: App's server URL, App finishes, server delay, server fault, notification URL, relaunch.
    try session.send("End")
    for _ in 0..<6 { try session.send("Up") }
    try session.send("Enter")
    try session.waitFor("Withdraw Parental Consent")
    try session.send("y")
    try session.waitFor("the app's server gets RESCIND_CONSENT")
    let outbox = try session.storefront(["notifications", "--json"]).output
    XCTAssertTrue(outbox.contains("\"RESCIND_CONSENT\""), outbox)
    try session.send("q")
    try session.waitFor("EXIT=0")
  }
}
