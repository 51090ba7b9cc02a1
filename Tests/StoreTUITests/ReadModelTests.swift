import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The rows come from the committed changes, so every kind of change a row displays moves it at
/// once, and the screen always equals what a fresh launch on the same ledger shows.
@MainActor
@Suite struct ReadModelTests {
  /// The ledger's record of the monthly chain.
  private func record(_ store: TestStore) throws -> SubscriptionRecord {
    try #require(store.queue.subscriptions().first { $0.productID == FixtureCatalog.monthly })
  }

  @Test func aRenewalByTheClockMovesTheRenewalDate() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.monthly)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    let trialEnd = try record(store).expiresDate
    #expect(runtime.state.status(of: FixtureCatalog.monthly) == .renews(trialEnd))
    for _ in 0..<8 { press(runtime, .char("]")) }
    let renewed = try record(store)
    #expect(renewed.expiresDate > trialEnd)
    #expect(runtime.state.notice?.text.hasPrefix("Renewed Premium Monthly until \(DateText.short(renewed.expiresDate))") == true)
    #expect(runtime.state.status(of: FixtureCatalog.monthly) == .renews(renewed.expiresDate))
    #expect(runtime.render().plainText.contains("renews \(DateText.short(renewed.expiresDate))"))
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after ]")
  }

  @Test func renewNowMovesTheRenewalDate() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.monthly)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    let before = try record(store).expiresDate
    press(runtime, .char("2"), .char("N"))
    let after = try record(store).expiresDate
    #expect(after != before)
    #expect(runtime.state.status(of: FixtureCatalog.monthly) == .renews(after))
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after N")
  }

  @Test func resolvingABillingRetryShowsTheRenewal() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.monthly)
    try store.queue.set(.billingRetry(true))
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    for _ in 0..<8 { press(runtime, .char("]")) }
    #expect(runtime.state.status(of: FixtureCatalog.monthly) == .billingRetry)
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "in billing retry")
    try store.queue.set(.billingRetry(false))
    press(runtime, .char("2"), .char("R"))
    let resolved = try record(store)
    #expect(resolved.status == .subscribed)
    #expect(runtime.state.status(of: FixtureCatalog.monthly) == .renews(resolved.expiresDate))
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after R")
  }

  @Test func graceExpiryRefundAndPlanChangesMoveTheRows() throws {
    let store = try TestStore()
    try store.queue.set(.gracePeriod(true))
    try store.queue.set(.billingRetry(true))
    let monthly = try store.buy(FixtureCatalog.monthly)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    for _ in 0..<8 { press(runtime, .char("]")) }
    #expect(runtime.state.status(of: FixtureCatalog.monthly) == .inGracePeriod)
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "in grace")
    try store.queue.set(.billingRetry(false))
    try store.queue.set(.gracePeriod(false))
    try store.queue.resolveBillingIssue(monthly.id)
    // A crossgrade to the yearly plan in the same group, at the next renewal.
    try store.buy(FixtureCatalog.yearly)
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after the plan change")
    press(runtime, .char("}"), .char("}"))
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after the plan change took effect")
    try store.queue.expireSubscription(monthly.id)
    #expect(runtime.state.status(of: FixtureCatalog.yearly) == .expired || runtime.state.status(of: FixtureCatalog.monthly) == .expired)
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after expiry")
    let ads = try store.buy(FixtureCatalog.removeAds)
    try store.queue.refund(ads.id)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .refunded)
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after a refund")
  }

  @Test func askToBuyAnswersAndPriceIncreasesMoveTheRows() throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    try store.queue.set(.askToBuy(true))
    let asked = try store.buy(FixtureCatalog.removeAds)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .deferred)
    try store.queue.approve(asked.id)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .owned)
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after an approval")
    try store.queue.set(.askToBuy(false))
    let monthly = try store.buy(FixtureCatalog.monthly)
    try store.queue.requestPriceIncrease(monthly.id, to: 5.99)
    try store.queue.answerPriceIncrease(monthly.id, consent: true)
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after a price increase")
  }

  /// A TUI's own purchase is its own, whatever the change feed later reports of it.
  @Test func anOwnPurchaseIsNeverAnotherProcesssChange() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readmodel-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let ledger = try SharedLedger(directory: directory)
    let store = try ledger.store(session: "tui")
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    for _ in 0..<20 {
      try store.buy(FixtureCatalog.monthly)
      runtime.tick(now: TestStore.start)
      #expect(!(0..<runtime.state.log.count).contains { runtime.state.log[$0].contains("changed by another process") })
      #expect(runtime.state.notice?.text.contains("changed by another process") != true)
      try store.queue.expireSubscription(try #require(store.queue.subscriptions().first).originalID)
      runtime.tick(now: TestStore.start)
    }
  }
}
