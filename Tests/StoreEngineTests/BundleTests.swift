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

  // MARK: A change of plan between two bundles of one group

  let photoBundle: Product.ID = "fixture.v63.bundle.photo.monthly"

  /// The fixture with a second bundle in the Creator Bundle's group: Photo Bundle, which includes
  /// only Photo Pro Monthly. `photoBundleRanksHigher` puts it above the Creator Bundle (a change
  /// to it is an upgrade) or below it (a downgrade, from the next renewal).
  func twoBundleStore(photoBundleRanksHigher: Bool) throws -> TestStore {
    let data = try Data(contentsOf: CatalogTestFiles.fixture("format-6.3.storekit"))
    var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    var groups = try XCTUnwrap(root["subscriptionBundleGroups"] as? [[String: Any]])
    var subscriptions = try XCTUnwrap(groups.first?["subscriptions"] as? [[String: Any]])
    var creator = try XCTUnwrap(subscriptions.first)
    var added = creator
    added["productID"] = photoBundle.rawValue
    added["internalID"] = "6400000099"
    added["referenceName"] = "Photo Bundle"
    added["bundledSubscriptions"] = [["productID": photo.rawValue, "subscriptionGroupID": "AAAA0061"]]
    creator["groupNumber"] = photoBundleRanksHigher ? 2 : 1
    added["groupNumber"] = photoBundleRanksHigher ? 1 : 2
    subscriptions = [creator, added]
    groups[0]["subscriptions"] = subscriptions
    root["subscriptionBundleGroups"] = groups
    let catalog = try CatalogDecoder().decode(try JSONSerialization.data(withJSONObject: root), path: "two-bundles.storekit")
    XCTAssertNotNil(catalog.product(photoBundle)?.subscription?.bundledSubscriptions.first)
    return try TestStore(catalog: catalog, ledger: InMemoryLedgerStore())
  }

  func testUpgradingToAnotherBundleEndsTheOldBundlesComponentsAtOnce() throws {
    let store = try twoBundleStore(photoBundleRanksHigher: true)
    let creator = try store.buy(bundle)
    let old = try components(of: creator, in: store)
    try store.queue.advance(by: 3 * day)
    let upgrade = try store.buy(photoBundle)
    XCTAssertEqual(upgrade.state, .purchased)
    XCTAssertEqual(upgrade.originalID, creator.originalID, "one chain per group")
    // B44: the old period and each of its components are marked upgraded.
    XCTAssertEqual(try store.queue.transaction(creator.id)?.isUpgraded, true)
    XCTAssertEqual(try old.map { try store.queue.transaction($0.id)?.isUpgraded }, [true, true])
    let new = try components(of: upgrade, in: store)
    XCTAssertEqual(new.map(\.productID), [photo])
    XCTAssertEqual(new.first?.originalID, old.first?.originalID, "the product both include keeps its chain")
    XCTAssertEqual(new.first?.isUpgraded, false)
    let entitlements = try store.queue.entitlements()
    XCTAssertEqual(entitlements.owning[photo]?.id, new.first?.id, "no gap for the product both include")
    XCTAssertFalse(entitlements.owns(video), "a product only the old bundle included ends with it")
    XCTAssertFalse(entitlements.owns(bundle))
    XCTAssertTrue(entitlements.owns(photoBundle))
    // Renewals carry on with the new bundle's components only.
    try store.queue.advance(by: 31 * day)
    let renewal = try XCTUnwrap(try store.queue.history().last { $0.productID == photoBundle })
    XCTAssertEqual(renewal.reason, .renewal)
    XCTAssertEqual(try components(of: renewal, in: store).map(\.productID), [photo])
    XCTAssertFalse(try store.queue.entitlements().owns(video))
    // Refunding the new period revokes its component with it.
    try store.queue.perform(.refund(renewal.id, reason: 0))
    XCTAssertEqual(try components(of: renewal, in: store).map(\.revocationReason), [0])
    XCTAssertFalse(try store.queue.entitlements().owns(photo))
  }

  func testDowngradingToAnotherBundleKeepsTheOldComponentsToTheRenewal() throws {
    let store = try twoBundleStore(photoBundleRanksHigher: false)
    let creator = try store.buy(bundle)
    try store.queue.advance(by: 3 * day)
    let change = try store.buy(photoBundle)
    XCTAssertNotEqual(change.state, .purchased, "B45: a downgrade waits for the renewal")
    var entitlements = try store.queue.entitlements()
    XCTAssertTrue(entitlements.owns(bundle) && entitlements.owns(photo) && entitlements.owns(video))
    XCTAssertEqual(try components(of: creator, in: store).map { $0.isUpgraded }, [false, false])
    try store.queue.advance(by: 28 * day)
    let renewal = try XCTUnwrap(try store.queue.history().last { $0.productID == photoBundle })
    XCTAssertEqual(renewal.originalID, creator.originalID)
    let photoChain = try components(of: creator, in: store).first { $0.productID == photo }
    XCTAssertEqual(try components(of: renewal, in: store).map(\.originalID), [photoChain?.originalID])
    entitlements = try store.queue.entitlements()
    XCTAssertTrue(entitlements.owns(photo), "the product both include stays entitled")
    XCTAssertFalse(entitlements.owns(video), "the old bundle's component ends at the renewal")
    XCTAssertFalse(entitlements.owns(bundle))
    // In the new bundle's grace period, only its own components keep access.
    try store.queue.set(.billingRetry(true))
    try store.queue.set(.gracePeriod(true))
    try store.queue.advance(by: 31 * day)
    XCTAssertEqual(store.queue.subscriptions().first { $0.originalID == creator.originalID }?.status, .inGracePeriod)
    entitlements = try store.queue.entitlements()
    XCTAssertTrue(entitlements.owns(photoBundle) && entitlements.owns(photo))
    XCTAssertFalse(entitlements.owns(video))
    // The bundle's expiry ends its components.
    try store.queue.perform(.expireSubscription(renewal.id))
    entitlements = try store.queue.entitlements()
    XCTAssertFalse(entitlements.owns(photoBundle) || entitlements.owns(photo) || entitlements.owns(video))
  }
}
