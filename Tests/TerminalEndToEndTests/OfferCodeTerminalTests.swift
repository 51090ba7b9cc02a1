import Foundation
import StorefrontProcessTestSupport
import XCTest

/// B87–B88 through a real terminal: a custom code made with `storefront offer-codes create` is
/// listed in the Redeem Code sheet, redeemed at its price, and listed as used up afterwards.
final class OfferCodeTerminalTests: XCTestCase {
  func testACodeMadeOnTheCommandLineIsListedRedeemedAndUsedUp() throws {
    let session = try TmuxSession()
    let made = try session.storefront([
      "offer-codes", "create", "GIFT", "com.jake.sample.ExInAppPurchase.coins100", "gift", "--price", "0.49",
    ])
    XCTAssertEqual(made.status, 0, made.output)
    try session.launch("--account mina")
    try session.waitFor("[ Restore Purchases ]")
    try session.send("o")
    try session.waitFor("GIFT  0/1 redeemed")
    try session.type("gift")
    try session.send("Enter")
    try session.waitFor("0.49")
    try session.send("Enter")
    try session.send("o")
    try session.waitFor("GIFT  1/1 redeemed  used up")
    try session.send("Escape")
    let list = try session.storefront(["offer-codes", "list"]).output
    XCTAssertTrue(list.contains("GIFT  custom  com.jake.sample.ExInAppPurchase.coins100  gift  1/1 redeemed"), list)
    try session.send("q")
    try session.waitFor("EXIT=0")
  }
}
