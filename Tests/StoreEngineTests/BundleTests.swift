import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Subscription bundles and suites (format 6.x, iOS 27; DECISIONS §47): a bundle's purchase and
/// renewals come with a component transaction per included subscription, switches between a
/// standalone subscription and a bundle link both ways, and the components entitle while the
/// bundle does.
final class BundleTests: XCTestCase {
  let day: TimeInterval = 86_400
  let bundle: Product.ID = "fixture.v63.bundle.monthly"
  let photo: Product.ID = "fixture.v63.photo.monthly"
  let video: Product.ID = "fixture.v63.video.monthly"
  let suite: Product.ID = "fixture.v63.suite.yearly"

  func store(ledger: InMemoryLedgerStore = InMemoryLedgerStore()) throws -> TestStore {
    try TestStore(catalog: try CatalogTestFiles.loadFixture("format-6.3.storekit"), ledger: ledger)
  }

  func components(of bundleTransaction: PaymentTransaction, in store: TestStore) throws -> [PaymentTransaction] {
    try store.queue.history().filter { $0.bundle?.transactionID == bundleTransaction.id }
  }

  func testBuyingABundleMakesAComponentTransactionPerIncludedSubscription() throws {
    let store = try store()
    let purchase = try store.buy(bundle)
    XCTAssertEqual(purchase.state, .purchased)
    XCTAssertEqual(purchase.subscriptionGroupID, "BBBB0061")
    XCTAssertNil(purchase.bundle, "the bundle's own transaction carries no bundle… values")
    let parts = try components(of: purchase, in: store)
    XCTAssertEqual(parts.map(\.productID), [photo, video])
    XCTAssertEqual(parts.map(\.subscriptionGroupID), ["AAAA0061", "AAAA0062"])
    for part in parts {
      XCTAssertEqual(part.state, .purchased)
      XCTAssertEqual(part.price, 0)
      XCTAssertEqual(part.expiresDate, purchase.expiresDate)
      XCTAssertEqual(part.originalID, part.id)
      XCTAssertEqual(
        part.bundle,
        BundleLink(productID: bundle, transactionID: purchase.id, originalTransactionID: purchase.originalID, subscriptionGroupID: "BBBB0061"))
      let payload = TestStore.payload(of: part.signedTransaction)
      XCTAssertEqual(payload["bundleProductId"] as? String, bundle.rawValue)
      XCTAssertEqual(payload["bundleTransactionId"] as? String, purchase.id.description)
      XCTAssertEqual(payload["bundleOriginalTransactionId"] as? String, purchase.originalID.description)
      XCTAssertEqual(payload["bundleSubscriptionGroupIdentifier"] as? String, "BBBB0061")
      XCTAssertNil(payload["previousOriginalTransactionId"])
    }
    XCTAssertNil(TestStore.payload(of: purchase.signedTransaction)["bundleProductId"])
    let entitlements = try store.queue.entitlements()
    XCTAssertTrue(entitlements.owns(bundle) && entitlements.owns(photo) && entitlements.owns(video))
    // The observer hears of the bundle and its components together.
    XCTAssertEqual(
      Array(store.observer.calls.suffix(3)),
      ["updated \(purchase.id) \(bundle) purchased", "updated \(parts[0].id) \(photo) purchased", "updated \(parts[1].id) \(video) purchased"])
  }

  func testABundleRenewsWithItsComponentsAndTheyEndWithIt() throws {
    let store = try store()
    let purchase = try store.buy(bundle)
    let first = try components(of: purchase, in: store)
    try store.queue.advance(by: 31 * day)
    let renewal = try XCTUnwrap(try store.queue.history().last { $0.productID == bundle })
    XCTAssertEqual(renewal.reason, .renewal)
    let renewed = try components(of: renewal, in: store)
    XCTAssertEqual(renewed.map(\.productID), [photo, video])
    XCTAssertEqual(renewed.map(\.originalID), first.map(\.originalID), "each included subscription keeps its chain")
    XCTAssertEqual(renewed.map(\.reason), [.renewal, .renewal])
    XCTAssertEqual(renewed.map(\.expiresDate), [renewal.expiresDate, renewal.expiresDate])
    XCTAssertEqual(renewed.first?.bundle?.originalTransactionID, purchase.id)
    XCTAssertTrue(try store.queue.entitlements().owns(video))

    try store.queue.perform(.expireSubscription(purchase.id))
    let entitlements = try store.queue.entitlements()
    XCTAssertFalse(entitlements.owns(bundle))
    XCTAssertFalse(entitlements.owns(photo), "a component ends with its bundle")
    XCTAssertFalse(entitlements.owns(video))
  }

  func testSwitchingFromAStandaloneSubscriptionToTheBundleRevokesItAndLinksTheBundle() throws {
    let store = try store()
    let standalone = try store.buy(photo)
    XCTAssertEqual(standalone.state, .purchased)
    let purchase = try store.buy(bundle)
    XCTAssertEqual(purchase.bundle?.previousOriginalID, standalone.originalID)
    XCTAssertEqual(TestStore.payload(of: purchase.signedTransaction)["previousOriginalTransactionId"] as? String, standalone.originalID.description)
    let revoked = try XCTUnwrap(try store.queue.transaction(standalone.id))
    XCTAssertNotNil(revoked.revocationDate)
    XCTAssertEqual(revoked.revocationReason, PaymentTransaction.upgradedToBundleRevocationReason)
    XCTAssertEqual(TestStore.payload(of: revoked.signedTransaction)["revocationReason"] as? Int, 2)
    XCTAssertEqual(store.queue.subscriptions().first { $0.originalID == standalone.originalID }?.status, .revoked)
    let parts = try components(of: purchase, in: store)
    XCTAssertEqual(parts.first { $0.productID == photo }?.bundle?.previousOriginalID, standalone.originalID)
    XCTAssertNil(parts.first { $0.productID == video }?.bundle?.previousOriginalID, "only the replaced subscription's component links back")
    let entitlements = try store.queue.entitlements()
    XCTAssertEqual(entitlements.owning[photo]?.bundle?.transactionID, purchase.id, "now entitled through the bundle")
  }

  func testSwitchingBackToTheStandaloneSubscriptionEndsTheBundle() throws {
    let store = try store()
    let standalone = try store.buy(photo)
    let purchase = try store.buy(bundle)
    try store.queue.advance(by: 3 * day)
    let back = try store.buy(photo)
    XCTAssertEqual(back.state, .purchased)
    // N3: the chain the switch revoked is subscribed again, not started anew.
    XCTAssertEqual(back.originalID, standalone.originalID)
    XCTAssertNotEqual(back.id, standalone.id)
    XCTAssertEqual(store.queue.subscriptions().first { $0.originalID == standalone.originalID }?.status, .subscribed)
    XCTAssertEqual(back.bundle?.previousOriginalID, purchase.originalID)
    XCTAssertEqual(TestStore.payload(of: back.signedTransaction)["previousOriginalTransactionId"] as? String, purchase.originalID.description)
    let record = try XCTUnwrap(store.queue.subscriptions().first { $0.originalID == purchase.originalID })
    XCTAssertEqual(record.status, .expired)
    XCTAssertEqual(try store.queue.transaction(purchase.id)?.expiresDate, store.queue.now)
    let entitlements = try store.queue.entitlements()
    XCTAssertEqual(entitlements.owning[photo]?.id, back.id)
    XCTAssertFalse(entitlements.owns(video))
    XCTAssertFalse(entitlements.owns(bundle))
    // Nothing renews the ended bundle.
    try store.queue.advance(by: 60 * day)
    XCTAssertEqual(try store.queue.history().filter { $0.productID == bundle }.count, 1)
  }

  func testRefundingTheBundleRevokesItsComponentsWithIt() throws {
    let store = try store()
    let purchase = try store.buy(bundle)
    try store.queue.perform(.refund(purchase.id, reason: 1))
    let parts = try components(of: purchase, in: store)
    XCTAssertEqual(parts.map(\.revocationReason), [1, 1])
    XCTAssertEqual(parts.map(\.revocationDate), [store.queue.now, store.queue.now])
    XCTAssertEqual(TestStore.payload(of: parts.first?.signedTransaction)["revocationReason"] as? Int, 1)
    let entitlements = try store.queue.entitlements()
    XCTAssertFalse(entitlements.owns(photo) || entitlements.owns(video) || entitlements.owns(bundle))
  }

  func testABundleInItsBillingGracePeriodKeepsItsComponents() throws {
    let store = try store()
    try store.queue.set(.billingRetry(true))
    try store.queue.set(.gracePeriod(true))
    _ = try store.buy(bundle)
    try store.queue.advance(by: 31 * day)
    XCTAssertEqual(store.queue.subscriptions().first { $0.productID == bundle }?.status, .inGracePeriod)
    let entitlements = try store.queue.entitlements()
    XCTAssertTrue(entitlements.owns(bundle) && entitlements.owns(photo) && entitlements.owns(video))
  }

  func testASuiteSellsSubscriptionsThatExistOnlyInsideIt() throws {
    let store = try store()
    let purchase = try store.buy(suite)
    let parts = try components(of: purchase, in: store)
    XCTAssertEqual(parts.map(\.productID.rawValue), ["fixture.v63.suite.editor", "fixture.v63.suite.cloud"])
    XCTAssertEqual(parts.map(\.subscriptionGroupID), ["CCCC0061", "CCCC0061"])
    XCTAssertEqual(parts.map(\.bundle?.productID), [suite, suite])
    XCTAssertTrue(try store.queue.entitlements().owns("fixture.v63.suite.cloud"))
  }

  func testTheBundleFieldsSurviveARelaunch() throws {
    let ledger = InMemoryLedgerStore()
    let first = try store(ledger: ledger)
    let standalone = try first.buy(photo)
    let purchase = try first.buy(bundle)
    let before = try first.queue.history()
    let again = try store(ledger: ledger)
    let after = try again.queue.history()
    XCTAssertEqual(after.map(\.bundle), before.map(\.bundle))
    XCTAssertEqual(after.first { $0.id == purchase.id }?.bundle?.previousOriginalID, standalone.originalID)
    XCTAssertTrue(try again.queue.entitlements().owns(video))
  }
}
