import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Manage subscription → cancel, through a real terminal: the storefront asks the developer's
/// realtime endpoint (a real HTTP server here) and its cancel sheet shows the default message when
/// the answer is junk, or the alternate product the endpoint chose, which a key switches to (issue 36).
final class RetentionTerminalTests: XCTestCase {
  static let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"
  static let yearly = "com.jake.sample.ExInAppPurchase.premium.yearly"
  static let defaultMessage = "0b0f6c7e-93a4-4d4e-8f3e-1f0d2c9b7a10"
  static let switchMessage = "5e1b7c2d-4a3f-4b8e-9c6d-7e8f9a0b1c2d"

  func testCancelSheetShowsTheDefaultForJunkAndTheEndpointsAlternateProduct() throws {
    let session = try TmuxSession()
    let scenario = session.dataDirectory.deletingLastPathComponent().appendingPathComponent("buy-\(getpid()).scenario")
    try Data("account mina\nset dialogs off\nbuy \(Self.monthly)\nfinish last\n".utf8).write(to: scenario)
    defer { try? FileManager.default.removeItem(at: scenario) }
    let bought = try session.storefront(["run", scenario.path])
    XCTAssertEqual(bought.status, 0, bought.output)

    let endpoint = try WebhookReceiver(behavior: .body(200, "<html>busy</html>"))
    defer { endpoint.stop() }
    // What `storefront serve`'s Retention Messaging API stores (the test writes it directly).
    let configuration = """
      {"defaults":{"\(Self.monthly)/en-US":"\(Self.defaultMessage)"},
       "messages":{"\(Self.defaultMessage)":{"state":"APPROVED","header":"Before you go","body":"Your streak ends if you cancel."},
                   "\(Self.switchMessage)":{"state":"APPROVED","header":"Save with Yearly","body":"One payment, a third off."}},
       "realtimeURLs":{"Sandbox":"\(endpoint.url)"}}
      """
    try Data(configuration.utf8).write(to: session.dataDirectory.appendingPathComponent("retention-messaging.json"))

    try session.launch("--account mina")
    try session.waitFor("[ Restore Purchases ]")
    try session.send("2")
    try session.waitFor("Premium Monthly")
    try session.send("m")
    try session.waitFor("Your streak ends if you cancel.")
    try session.waitFor("Default shown: the answer is not a JSON object")
    XCTAssertEqual(endpoint.requests.count, 1)
    try session.send("Escape")
    try session.waitUntil("the cancel sheet to close", timeout: 10) { !(try session.screen()).contains("Your streak ends") }

    endpoint.setBehavior(.body(200, #"{"alternateProduct":{"productId":"\#(Self.yearly)","messageIdentifier":"\#(Self.switchMessage)"}}"#))
    try session.send("m")
    try session.waitFor("Save with Yearly")
    try session.waitFor("Switch to Premium Yearly")
    XCTAssertEqual(endpoint.requests.count, 2)
    XCTAssertTrue(endpoint.requests.last?.text.hasPrefix(#"{"signedPayload":"ey"#) == true, endpoint.requests.last?.text ?? "")
    try session.send("y")
    // The switch is a purchase of the other plan, with its own sheet; buying it changes plans.
    try session.waitFor("Subscribe to Premium Yearly?")
    try session.send("y")
    try session.waitUntil("the yearly plan in the ledger", timeout: 10) {
      try session.ledger().contains { $0["productId"] as? String == Self.yearly }
    }
    try session.send("q")
    try session.waitFor("EXIT=0")
  }
}
