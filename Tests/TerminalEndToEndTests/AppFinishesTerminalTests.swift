import Foundation
import StorefrontProcessTestSupport
import XCTest

/// The interactive storefront's simulated app in its finishing modes, through a real terminal: a
/// purchase asks the app's server (a real HTTP server on 127.0.0.1:0), and only its yes finishes it.
final class AppFinishesTerminalTests: XCTestCase {
  private func unfinished(_ session: TmuxSession) throws -> [String] {
    try session.ledger().filter { $0["finished"] as? Bool == false }.compactMap { $0["transactionId"] as? String }
  }

  func testAfterServerA500LeavesThePurchaseUnfinishedUntilARelaunchAsksAgain() throws {
    let receiver = try WebhookReceiver(behavior: .status(500))
    defer { receiver.stop() }
    let session = try TmuxSession()
    try session.launch("--account mina --app-finishes after-server \(receiver.url)")
    try session.waitFor("[ Restore Purchases ]")  // drawn by the TUI; the account name is already on screen in the typed command
    try session.send("Enter")  // Remove Ads
    try session.waitFor("Do you want to buy one Remove Ads")
    try session.send("y")
    XCTAssertTrue(receiver.waitForRequests(1), "the app never called its server")
    try session.waitFor("answered HTTP 500")
    try session.send("4")
    try session.waitFor("appServerCall")
    let id = try XCTUnwrap(try unfinished(session).first, "the purchase is unfinished in the ledger")
    XCTAssertEqual(try unfinished(session).count, 1)

    receiver.setBehavior(.status(200))
    try session.send("L")
    XCTAssertTrue(receiver.waitForRequests(2), "the relaunch did not ask again")
    try session.waitFor("Finished transaction \(id)")
    XCTAssertEqual(try unfinished(session), [])
    let bodies = receiver.requests.map { ((try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any])?["transactionId"] as? String }
    XCTAssertEqual(bodies, [id, id])
    try session.send("q")
    try session.waitFor("EXIT=0")
  }

  func testManuallyTheNoticeSaysWhichKeyFinishes() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("[ Restore Purchases ]")  // drawn by the TUI; the account name is already on screen in the typed command
    try session.send("Enter")
    try session.waitFor("Do you want to buy one Remove Ads")
    try session.send("y")
    try session.waitFor("The app finishes manually: f in Transactions (2).")
    try session.send("2")
    try session.waitFor("(manual: f finishes)")
    try session.send("f")
    try session.waitFor("Finished transaction")
    try session.send("q")
    try session.waitFor("EXIT=0")
  }
}
