import StoreEngine
import StorefrontTestSupport
import XCTest

final class SubscriptionTests: XCTestCase {
  typealias F = FixtureCatalog
  let day: TimeInterval = 86_400

  func testTrialThenPaidRenewalsThenCancelThenExpiry() throws {
    let store = try TestStore()
    let first = try store.buy(F.monthly)
    XCTAssertEqual(first.offerType, .introductory)
    XCTAssertEqual(first.offerPaymentMode, .freeTrial)
    XCTAssertEqual(first.price, 0)
    XCTAssertEqual(first.expiresDate, TestStore.start.addingTimeInterval(7 * day))
    try store.queue.advance(by: 7 * day)
    let renewal = try XCTUnwrap(try store.queue.history().last)
    XCTAssertEqual(renewal.reason, .renewal)
    XCTAssertEqual(renewal.originalID, first.id)
    XCTAssertNotEqual(renewal.id, first.id)
    XCTAssertEqual(renewal.price, Decimal(string: "2.99"))
    XCTAssertEqual(store.observer.calls.last, "updated \(renewal.id) \(F.monthly) purchased")
    try store.queue.advance(by: 62 * day)  // two more monthly renewals
    XCTAssertEqual(try store.queue.history().filter { $0.reason == .renewal }.count, 3)
    try store.queue.setAutoRenew(false, for: first.id)
    try store.queue.advance(by: 40 * day)
    XCTAssertEqual(store.queue.subscriptions().first?.status, .expired)
    XCTAssertEqual(store.queue.subscriptions().first?.expirationIntent, .customerCancelled)
    XCTAssertFalse(try store.queue.entitlements().owns(F.monthly))
    XCTAssertEqual(try store.queue.history().filter { $0.reason == .renewal }.count, 3)
  }

  func testIntroOfferOnlyOncePerGroup() throws {
    let store = try TestStore()
    let first = try store.buy(F.monthly)
    try store.queue.expireSubscription(first.id)
    let second = try store.buy(F.monthly)
    XCTAssertNil(second.offerType)
    XCTAssertEqual(second.price, Decimal(string: "2.99"))
    XCTAssertFalse(store.queue.isEligibleForIntroOffer(group: F.group, account: "tester"))
  }

  func testBillingRetryThenRecovery() throws {
    let store = try TestStore()
    let first = try store.buy(F.monthly)
    try store.queue.set(.billingRetry(true))
    try store.queue.advance(by: 7 * day)
    XCTAssertEqual(store.queue.subscriptions().first?.status, .inBillingRetry)
    XCTAssertFalse(try store.queue.entitlements().owns(F.monthly))
    try store.queue.set(.billingRetry(false))
    try store.queue.resolveBillingIssue(first.id)
    XCTAssertEqual(store.queue.subscriptions().first?.status, .subscribed)
    XCTAssertTrue(try store.queue.entitlements().owns(F.monthly))
  }

  func testGracePeriodKeepsEntitlementThenExpires() throws {
    let store = try TestStore()
    try store.buy(F.monthly)
    try store.queue.set(.billingRetry(true)); try store.queue.set(.gracePeriod(true))
    try store.queue.advance(by: 7 * day)
    XCTAssertEqual(store.queue.subscriptions().first?.status, .inGracePeriod)
    try store.queue.advance(by: 17 * day)
    XCTAssertEqual(store.queue.subscriptions().first?.status, .inBillingRetry)
    try store.queue.advance(by: 61 * day)
    XCTAssertEqual(store.queue.subscriptions().first?.status, .expired)
    XCTAssertEqual(store.queue.subscriptions().first?.expirationIntent, .billingError)
  }

  func testUpgradeTakesEffectNowAndMarksTheOldPeriodUpgraded() throws {
    let store = try TestStore()
    let monthly = try store.buy(F.monthly)
    try store.queue.advance(by: 2 * day)
    let yearly = try store.buy(F.yearly)
    XCTAssertEqual(yearly.originalID, monthly.id)
    XCTAssertEqual(yearly.expiresDate, Calendar(identifier: .gregorian).date(byAdding: .year, value: 1, to: TestStore.start.addingTimeInterval(2 * day)))
    XCTAssertTrue(try store.queue.transaction(monthly.id)?.isUpgraded ?? false)
    XCTAssertEqual(store.queue.subscriptions().count, 1)
    XCTAssertEqual(store.queue.subscriptions().first?.productID, F.yearly)
  }

  func testDowngradeAppliesAtNextRenewal() throws {
    // B45: no placeholder transaction; the payment fails and only the renewal product changes.
    let store = try TestStore()
    try store.buy(F.yearly)
    let downgrade = try store.buy(F.monthly)
    XCTAssertEqual(downgrade.state, .failed)
    XCTAssertNil(downgrade.signedTransaction)
    XCTAssertNil(downgrade.expiresDate)
    XCTAssertEqual(store.queue.subscriptions().first?.renewalProductID, F.monthly)
    try store.queue.advance(by: 366 * day)
    let renewal = try XCTUnwrap(try store.queue.history().first { $0.reason == .renewal })
    XCTAssertEqual(renewal.productID, F.monthly)
    XCTAssertEqual(store.queue.subscriptions().first?.productID, F.monthly)
  }

  func testRefundRevokesSubscription() throws {
    let store = try TestStore()
    let monthly = try store.buy(F.monthly)
    let seen = EventLog()
    let token = store.queue.bus.subscribe(StoreEvent.self) { seen.append($0) }
    try store.queue.refund(monthly.id)
    token.cancel()
    XCTAssertEqual(seen.events.count, 2)
    guard case .subscriptionChanged(let record, _) = seen.events.last, record.status == .revoked else {
      return XCTFail("expected a revoked status, got \(seen.events)")
    }
    XCTAssertFalse(try store.queue.entitlements().owns(F.monthly))
  }

  func testSandboxRenewalCapStopsAfterTwelve() throws {
    let store = try TestStore()
    let rate = try XCTUnwrap(TimeRate.preset(named: "sandbox-5m"))
    try store.queue.set(.timeRate(rate.rawValue))
    try store.queue.expireSubscription(store.buy(F.monthly).id)  // use up the trial
    try store.buy(F.monthly)
    try store.queue.advance(by: 3 * 3600)
    XCTAssertEqual(try store.queue.history().filter { $0.reason == .renewal }.count, 12)
    XCTAssertEqual(store.queue.subscriptions().last?.status, .expired)
    let firstPaid = try XCTUnwrap(try store.queue.history().first { $0.price > 0 })
    XCTAssertEqual(firstPaid.expiresDate, firstPaid.purchaseDate.addingTimeInterval(300))
  }

  /// B66: Apple dates no non-renewing subscription; its latest transaction stays an entitlement
  /// (the app decides the term), and buying again is a new, undated purchase.
  func testB66NonRenewingHasNoInventedTermAndStaysEntitled() throws {
    let store = try TestStore()
    let first = try store.buy(F.seasonPass)
    let second = try store.buy(F.seasonPass)
    XCTAssertNil(first.expiresDate)
    XCTAssertNil(second.expiresDate)
    XCTAssertNotEqual(second.price, 0, "buying a non-renewing subscription again is charged")
    try store.queue.advance(by: 400 * day)
    XCTAssertTrue(try store.queue.entitlements().owns(F.seasonPass))
    XCTAssertEqual(try store.queue.history().count, 2)
  }

  func testForceRenewalStartsNextPeriodNow() throws {
    let store = try TestStore()
    let first = try store.buy(F.monthly)
    try store.queue.advance(by: day)
    try store.queue.forceRenewal(first.id)
    let renewal = try XCTUnwrap(try store.queue.history().last)
    XCTAssertEqual(renewal.purchaseDate, TestStore.start.addingTimeInterval(day))
    XCTAssertEqual(try store.queue.transaction(first.id)?.expiresDate, TestStore.start.addingTimeInterval(day))
  }

  func testPriceIncreaseDeclinedExpiresAtPeriodEnd() throws {
    let store = try TestStore()
    let first = try store.buy(F.monthly)
    try store.queue.requestPriceIncrease(first.id)
    try store.queue.answerPriceIncrease(first.id, consent: false)
    try store.queue.advance(by: 8 * day)
    XCTAssertEqual(store.queue.subscriptions().first?.status, .expired)
    XCTAssertEqual(store.queue.subscriptions().first?.expirationIntent, .priceIncreaseNotConsented)
  }

  func testTimeRatePresets() throws {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    let start = TestStore.start
    XCTAssertEqual(TimeRate.preset(rawValue: 13)?.end(of: month, from: start), start.addingTimeInterval(300))
    XCTAssertEqual(TimeRate.preset(rawValue: 1005)?.end(of: SubscriptionPeriod(value: 1, unit: .year), from: start), start.addingTimeInterval(2))
    XCTAssertEqual(TimeRate.preset(rawValue: 10)?.end(of: SubscriptionPeriod(value: 1, unit: .year), from: start), start.addingTimeInterval(43_200))
    XCTAssertEqual(TimeRate.preset(rawValue: 6)?.name, "monthly-every-30s")
    XCTAssertNil(TimeRate.preset(rawValue: 999))
  }
}
