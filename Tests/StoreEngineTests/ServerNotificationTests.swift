import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Which App Store Server Notification each store event causes (reference §5.4, Apple's life-cycle
/// tables), committed to the outbox in the same step as its cause.
final class ServerNotificationTests: XCTestCase {
  typealias F = FixtureCatalog
  private var store: TestStore!

  override func setUpWithError() throws {
    store = try TestStore()
    try store.queue.perform(.setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/hook"))
  }

  /// Type and subtype of each notification in the outbox since `start`, in commit order.
  private func sent(since start: Int = 0) -> [String] {
    store.ledger.outbox.dropFirst(start).map { [$0.notificationType.rawValue, $0.subtype?.rawValue].compactMap { $0 }.joined(separator: "/") }
  }

  func testNothingIsQueuedWithoutANotificationURL() throws {
    let quiet = try TestStore()
    try quiet.buy(F.coins)
    try quiet.buy(F.monthly)
    XCTAssertEqual(quiet.ledger.outbox, [])
    try quiet.queue.perform(.setNotificationURL(environment: "Production", url: "http://127.0.0.1:9/hook"))
    try quiet.buy(F.removeAds)
    XCTAssertEqual(quiet.ledger.outbox, [], "a Sandbox store sends nothing to a Production URL")
  }

  func testOneTimeChargesAndRefunds() throws {
    let coins = try store.buy(F.coins)
    let removeAds = try store.buy(F.removeAds)
    try store.queue.refund(coins.id)
    XCTAssertEqual(sent(), ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE", "REFUND"])
    let charge = try XCTUnwrap(store.ledger.outbox.first)
    XCTAssertEqual(charge.transactionID, coins.id)
    XCTAssertEqual(charge.account, "tester")
    XCTAssertEqual(charge.signedTransactionInfo, coins.signedTransaction, "the JWS of the step that caused it")
    XCTAssertNil(charge.signedRenewalInfo)
    XCTAssertEqual(charge.date, TestStore.start)
    let refund = try XCTUnwrap(store.ledger.outbox.last)
    XCTAssertEqual(TestStore.payload(of: refund.signedTransactionInfo)["revocationDate"] != nil, true, "re-signed with its revocation")
    // A re-download of a non-consumable is no charge.
    try store.queue.finish(removeAds.id)
    try store.buy(F.removeAds)
    XCTAssertEqual(sent(since: 3), [])
  }

  func testSubscriptionLifeCycle() throws {
    let bought = try store.buy(F.monthly)
    try store.queue.finish(bought.id)
    try store.queue.forceRenewal(bought.id)
    try store.queue.setAutoRenew(false, for: bought.id)
    try store.queue.setAutoRenew(true, for: bought.id)
    try store.queue.requestPriceIncrease(bought.id)
    try store.queue.answerPriceIncrease(bought.id, consent: true)
    try store.queue.expireSubscription(bought.id)
    XCTAssertEqual(sent(), [
      "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED",
      "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "EXPIRED/VOLUNTARY",
    ])
    let first = try XCTUnwrap(store.ledger.outbox.first)
    XCTAssertEqual(first.originalTransactionID, bought.id)
    XCTAssertEqual(first.status, 1)
    XCTAssertNotNil(first.signedRenewalInfo)
    XCTAssertEqual(store.ledger.outbox.last?.status, 2, "expired")
    // Buying the group again after it lapsed is a resubscription.
    try store.buy(F.monthly)
    XCTAssertEqual(sent(since: 7), ["SUBSCRIBED/RESUBSCRIBE"])
  }

  func testRenewalsAndBillingTroubleAsTheClockMoves() throws {
    let bought = try store.buy(F.monthly)
    try store.queue.finish(bought.id)
    try store.queue.advance(by: 31 * 86_400)
    XCTAssertEqual(sent(since: 1), ["DID_RENEW"])
    try store.queue.set(.billingRetry(true))
    try store.queue.set(.gracePeriod(true))
    try store.queue.advance(by: 31 * 86_400)
    try store.queue.advance(by: 20 * 86_400)
    XCTAssertEqual(sent(since: 2), ["DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED"])
    try store.queue.resolveBillingIssue(bought.id)
    XCTAssertEqual(sent(since: 4), ["DID_RENEW/BILLING_RECOVERY"])
    try store.queue.set(.gracePeriod(false))
    try store.queue.advance(by: 40 * 86_400)
    try store.queue.advance(by: 70 * 86_400)
    XCTAssertEqual(sent(since: 5), ["DID_FAIL_TO_RENEW", "EXPIRED/BILLING_RETRY"])
  }

  func testPlanChangesUpgradeAndDowngrade() throws {
    let monthly = try store.buy(F.monthly)
    try store.queue.finish(monthly.id)
    try store.buy(F.yearly)
    let kinds = sent()
    XCTAssertEqual(kinds.first, "SUBSCRIBED/INITIAL_BUY")
    XCTAssertEqual(kinds.count, 2)
    XCTAssertTrue(["DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE"].contains(kinds[1]), kinds[1])
  }

  func testRefundRequestsAskForConsumptionAndAreDeclinedOrGranted() throws {
    let coins = try store.buy(F.coins)
    try store.queue.perform(.requestRefund(coins.id, answer: .decline, reason: 1))
    try store.queue.perform(.requestRefund(coins.id, answer: .approve, reason: 0))
    XCTAssertEqual(sent(since: 1), ["CONSUMPTION_REQUEST", "REFUND_DECLINED", "CONSUMPTION_REQUEST", "REFUND"])
    XCTAssertEqual(store.ledger.outbox.map(\.consumptionRequestReason), [nil, "FULFILLMENT_ISSUE", nil, "UNINTENDED_PURCHASE", nil])
  }

  func testExtensionsOneAndMass() throws {
    let bought = try store.buy(F.monthly)
    try store.queue.perform(.extendRenewalDate(bought.id, days: 3, requestID: "one"))
    try store.queue.perform(.extendRenewalDates(MassExtension(productID: F.monthly, requestID: "mass", days: 2, reasonCode: 1)))
    XCTAssertEqual(sent(since: 1), ["RENEWAL_EXTENDED", "RENEWAL_EXTENSION/SUMMARY"])
    let summary = try XCTUnwrap(store.ledger.outbox.last?.summary)
    XCTAssertEqual(summary.succeeded, 1)
    XCTAssertNil(store.ledger.outbox.last?.transactionID)
  }

  func testAPurchaseALaunchCompletesIsNotifiedToo() throws {
    let sheet = try TestStore(dialogs: true)
    try sheet.queue.perform(.setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/hook"))
    _ = try sheet.queue.add(Payment(productID: F.coins))
    XCTAssertEqual(sheet.ledger.outbox, [], "the sheet is up; nothing is charged yet")
    try sheet.queue.set(.dialogs(false))
    try sheet.queue.relaunch()
    XCTAssertEqual(sheet.ledger.outbox.map(\.notificationType), [.oneTimeCharge])
  }

  func testATestNotificationCarriesItsToken() throws {
    try store.queue.perform(.requestTestNotification(token: "token-1"))
    XCTAssertEqual(sent(), ["TEST"])
    XCTAssertEqual(store.ledger.outbox.first?.testNotificationToken, "token-1")
    XCTAssertNil(store.ledger.outbox.first?.signedTransactionInfo)
  }

  func testTheStepAnnouncesWhatItQueued() throws {
    let queued = Locked<[ServerNotification]>([])
    let subscription = store.queue.bus.subscribe(StoreEvent.self) { event in
      if case .notificationQueued(let notification) = event { queued.withLock { $0.append(notification) } }
    }
    defer { subscription.cancel() }
    try store.buy(F.coins)
    XCTAssertEqual(queued.withLock { $0 }, store.ledger.outbox)
  }
}
