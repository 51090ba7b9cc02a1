import Foundation
import XCTest

/// Issue 23, end to end: every kind of change a Store row displays, made with the TUI's keys or by
/// another process on the same data directory, shows on the row at once, without a relaunch, as
/// the ledger has it; and a relaunch shows the same rows.
///
/// Dates are read from the ledger (`storefront transactions --json`), never written down: the
/// virtual clock starts where the data directory's clock is.
final class RowChangeTerminalTests: XCTestCase {
  private static let removeAds = "com.jake.sample.ExInAppPurchase.shopping"
  private static let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"
  private static let yearly = "com.jake.sample.ExInAppPurchase.premium.yearly"
  private static let coins = "com.jake.sample.ExInAppPurchase.coins100"
  /// The built-in catalog's rows, in order.
  private static let rows = ["Remove Ads", "100 Coins", "500 Coins", "Season Pass", "Premium Monthly", "Premium Yearly"]

  private func launch(account: String) throws -> TmuxSession {
    let session = try TmuxSession(width: 110, height: 32)
    try session.launch("--account \(account)")
    try session.waitFor("[ Restore Purchases ]")
    return session
  }

  /// Quits, starts a new storefront process on the same data directory and checks that every row
  /// reads as it did.
  private func assertAFreshLaunchShowsTheSameRows(
    _ session: TmuxSession, account: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    try session.send("1")
    let before = try session.storeStatuses(Self.rows)
    try session.send("q")
    try session.waitFor("EXIT=0", file: file, line: line)
    try session.launch("--account \(account)")
    try session.waitFor("[ Restore Purchases ]", file: file, line: line)
    XCTAssertEqual(try session.storeStatuses(Self.rows), before, "a fresh launch shows other rows", file: file, line: line)
    try session.send("q")
    try session.waitFor("EXIT=0", file: file, line: line)
  }

  /// Purchase (a free trial), renewal by the clock (and the same row after `L`), renew now, billing
  /// retry and its resolution, grace period and its resolution, auto-renew off and on, expiry.
  func testASubscriptionsChangesInTheTUI() throws {
    let session = try launch(account: "jake")
    let name = "Premium Monthly"

    try session.buy(row: 4)
    let trial = try session.waitForStatus(name, "a renewal date") { $0.hasPrefix("renews ") }
    XCTAssertEqual(trial, "renews \(try session.currentExpiry(Self.monthly, account: "jake"))", "purchase")

    // The trial is a week: `]` eight times renews it.
    for _ in 0..<8 { try session.send("]") }
    let renewed = try session.waitForStatus(name, "the renewal") { $0.hasPrefix("renews ") && $0 != trial }
    let renewal = try session.currentExpiry(Self.monthly, account: "jake")
    XCTAssertEqual(renewed, "renews \(renewal)", "renewal by the clock")
    try session.waitFor("Renewed Premium Monthly until \(renewal)")
    try session.send("L")
    try session.waitFor("Relaunched:")
    XCTAssertEqual(try session.storeStatus(name), renewed, "the relaunched app shows another row")

    try session.onNewestTransaction("N")
    let renewedNow = try session.waitForStatus(name, "the renewal now") { $0.hasPrefix("renews ") && $0 != renewed }
    XCTAssertEqual(renewedNow, "renews \(try session.currentExpiry(Self.monthly, account: "jake"))", "renew now")

    // Billing retry: the renewal fails; 32 days is past any month.
    try session.set("Billing retry on renewal", row: 6, to: "on")
    try session.send("}", "]", "]")
    try session.waitForStatus(name, is: "billing retry")
    try session.onNewestTransaction("R")
    let resolved = try session.waitForStatus(name, "the resolution") { $0.hasPrefix("renews ") }
    XCTAssertEqual(resolved, "renews \(try session.currentExpiry(Self.monthly, account: "jake"))", "billing retry resolved")
    XCTAssertNotEqual(resolved, renewedNow)

    // Grace period: 32 days is past the renewal and inside the 16 days of grace.
    try session.set("Billing grace period", row: 7, to: "on")
    try session.send("}", "]", "]")
    try session.waitForStatus(name, is: "in grace period")
    try session.onNewestTransaction("R")
    let graceResolved = try session.waitForStatus(name, "the resolution") { $0.hasPrefix("renews ") && $0 != resolved }
    let afterGrace = try session.currentExpiry(Self.monthly, account: "jake")
    XCTAssertEqual(graceResolved, "renews \(afterGrace)", "grace period resolved")

    try session.onNewestTransaction("A")
    try session.waitForStatus(name, is: "expires \(afterGrace)")
    try session.onNewestTransaction("A")
    try session.waitForStatus(name, is: "renews \(afterGrace)")

    try session.onNewestTransaction("E")
    try session.waitForStatus(name, is: "expired")
    let current = try XCTUnwrap(try session.ledger(Self.monthly, account: "jake").last)
    let ended = TmuxSession.shortDate(try XCTUnwrap(current["expiresDate"] as? String))
    XCTAssertLessThan(ended, afterGrace, "expiry: the ledger's period did not end early")
    try assertAFreshLaunchShowsTheSameRows(session, account: "jake")
  }

  /// Ask to Buy declined then approved, a refund, an upgrade (at once), a downgrade (at the
  /// renewal), and a price increase requested and declined by another process (`storefront run`).
  func testAskToBuyRefundPlanChangesAndAPriceIncrease() throws {
    let session = try launch(account: "jake")

    try session.set("Ask to Buy", row: 2, to: "on")
    try session.buy(row: 0)
    try session.waitFor("Ask Permission")
    try session.send("Enter")
    try session.waitForStatus("Remove Ads", is: "deferred (Ask to Buy)")
    XCTAssertEqual(try session.ledger(Self.removeAds, account: "jake").last?["state"] as? String, "deferred")
    try session.onNewestTransaction("d")
    try session.waitFor("the parent declined Remove Ads")
    try session.waitForStatus("Remove Ads", is: "deferred (Ask to Buy)")  // StoreKit tells the app nothing of a decline
    try session.onNewestTransaction("a")
    try session.waitForStatus("Remove Ads", is: "owned")
    XCTAssertEqual(try session.ledger(Self.removeAds, account: "jake").last?["state"] as? String, "purchased")

    try session.onNewestTransaction("x")
    try session.waitForStatus("Remove Ads", is: "refunded")
    XCTAssertNotNil(try session.ledger(Self.removeAds, account: "jake").last?["revocationDate"], "refund")
    try session.set("Ask to Buy", row: 2, to: "off")

    try session.buy(row: 4)
    try session.waitForStatus("Premium Monthly", is: "renews \(try session.currentExpiry(Self.monthly, account: "jake"))")
    // Yearly is the higher level of the group: an upgrade, at once.
    try session.buy(row: 5)
    let yearly = try session.waitForStatus("Premium Yearly", "the upgrade") { $0.hasPrefix("renews ") }
    XCTAssertEqual(yearly, "renews \(try session.currentExpiry(Self.yearly, account: "jake"))", "upgrade")
    let upgradedMonthly = try XCTUnwrap(session.storeStatus("Premium Monthly"))
    XCTAssertFalse(upgradedMonthly.hasPrefix("renews"), "the upgraded monthly period does not renew: \(upgradedMonthly)")

    // Back to monthly: a downgrade, from the next renewal; until then nothing is charged.
    try session.buy(row: 4)
    try session.waitUntil("the downgrade is in the ledger", timeout: 10) {
      try session.ledger(Self.monthly, account: "jake").contains { $0["state"] as? String == "failed" }
    }
    XCTAssertEqual(try session.storeStatus("Premium Yearly"), yearly, "a downgrade changes nothing before the renewal")
    let beforeRenewal = try XCTUnwrap(session.storeStatus("Premium Monthly"))
    for _ in 0..<13 { try session.send("}") }  // 390 days: past the year
    let downgraded = try session.waitForStatus("Premium Monthly", "the downgrade") {
      $0.hasPrefix("renews ") && $0 != beforeRenewal
    }
    XCTAssertEqual(downgraded, "renews \(try session.currentExpiry(Self.monthly, account: "jake"))", "downgrade")
    XCTAssertNotEqual(try session.storeStatus("Premium Yearly"), yearly)

    // Another process requests a price increase and the customer declines it: auto-renew is off,
    // the row says when the subscription ends.
    try session.runScenario("""
      account jake
      price-increase \(Self.monthly) request price=5.99
      price-increase \(Self.monthly) decline

      """)
    try session.waitForStatus("Premium Monthly", is: "expires \(downgraded.dropFirst("renews ".count))")
    try assertAFreshLaunchShowsTheSameRows(session, account: "jake")
  }

  /// Signed in as a family member, while other processes work on the same data directory: the
  /// organizer's family-shareable purchase reaches the row, its refund revokes it, and a purchase
  /// and a subscription renewal made by another process for this account show as they happen.
  func testChangesByAnotherProcessReachTheRows() throws {
    let session = try launch(account: "kid")
    // An hour on the clock puts the TUI's clock in the ledger, where a run continues from it (a run
    // on a data directory with no clock yet starts at 2026-01-01, behind the TUI's).
    let clock = try session.headerClock()
    try session.send("+")
    try session.waitUntil("the clock moves an hour", timeout: 10) { try session.headerClock() != clock }

    try session.runScenario("""
      family jake kid
      account jake
      set dialogs off
      buy \(Self.removeAds)
      finish last

      """)
    try session.waitForStatus("Remove Ads", is: "owned")
    let shared = try XCTUnwrap(try session.ledger(Self.removeAds, account: "kid").last, "the family copy")
    XCTAssertEqual(shared["state"] as? String, "purchased")

    try session.runScenario("""
      account jake
      refund \(Self.removeAds)

      """)
    try session.waitForStatus("Remove Ads", is: "refunded")
    XCTAssertNotNil(try session.ledger(Self.removeAds, account: "kid").last?["revocationDate"], "revoke")

    try session.runScenario("""
      account kid
      set dialogs off
      buy \(Self.coins)
      buy \(Self.monthly)
      advance 8d

      """)
    XCTAssertEqual(try session.ledger(Self.monthly, account: "kid").count, 2, "the trial and its renewal")
    // The run has ended: the row must come to what the ledger holds now.
    try session.waitForStatus("100 Coins", is: "bought ×1")
    let renewed = "renews \(try session.currentExpiry(Self.monthly, account: "kid"))"
    try session.waitForStatus("Premium Monthly", is: renewed)

    try assertAFreshLaunchShowsTheSameRows(session, account: "kid")
  }

  /// A key pressed right after another process changed a subscription (before the TUI's next
  /// tick reads the change feed) works on the subscription as the ledger has it: an accepted price
  /// increase is billed at the renewal, and a subscription whose auto-renew another process turned
  /// off ends instead of renewing.
  func testAKeyRightAfterAnotherProcesssChangeWorksOnTheLedgerAsItIs() throws {
    let session = try launch(account: "jake")
    try session.buy(row: 4)
    let trial = try session.waitForStatus("Premium Monthly", "the trial") { $0.hasPrefix("renews ") }

    try session.runScenario("""
      account jake
      price-increase \(Self.monthly) request price=5.99
      price-increase \(Self.monthly) accept

      """)
    try session.tmux(["send-keys", "-t", "e2e"] + Array(repeating: "]", count: 8))  // past the week's trial, at once
    let renewed = try session.waitForStatus("Premium Monthly", "the renewal") { $0.hasPrefix("renews ") && $0 != trial }
    XCTAssertEqual(renewed, "renews \(try session.currentExpiry(Self.monthly, account: "jake"))")
    XCTAssertEqual(
      try session.ledger(Self.monthly, account: "jake").last?["price"] as? String, "5.99",
      "the renewal ignored the price increase another process had the customer accept")

    try session.runScenario("""
      account jake
      auto-renew \(Self.monthly) off

      """)
    try session.send("}", "]", "]")  // past the renewal, at once
    try session.waitForStatus("Premium Monthly", "the end of the subscription (or a renewal)") {
      $0 == "expired" || ($0.hasPrefix("renews ") && $0 != renewed)
    }
    XCTAssertEqual(try session.storeStatus("Premium Monthly"), "expired", "renewed after another process turned auto-renew off")
    XCTAssertEqual(
      try session.ledger(Self.monthly, account: "jake").count, 2, "a renewal was charged after another process turned auto-renew off")
    try assertAFreshLaunchShowsTheSameRows(session, account: "jake")
  }
}
