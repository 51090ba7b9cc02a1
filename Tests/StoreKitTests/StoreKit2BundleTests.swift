import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// Subscription bundles and suites through the library (iOS 27; DECISIONS §47), under an
/// `SKTestSession` with a format 6.3 catalog (Tests/Fixtures/format-6.3.storekit).
final class StoreKit2BundleTests: StoreKitTestCase {
  let bundle = "fixture.v63.bundle.monthly"
  let suite = "fixture.v63.suite.yearly"
  let photo = "fixture.v63.photo.monthly"
  let video = "fixture.v63.video.monthly"

  override func setUpWithError() throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/format-6.3.storekit")
    session = try SKTestSession(contentsOf: fixture)
    session.disableDialogs = true
    observer = RecordingQueueObserver()
    SKPaymentQueue.default().add(observer)
  }

  func entitlements(for productID: String? = nil) async -> [Transaction] {
    var all: [Transaction] = []
    let sequence = productID.map { Transaction.currentEntitlements(for: $0) } ?? Transaction.currentEntitlements
    for await element in sequence { all.append(element.unsafePayloadValue) }
    return all
  }

  func buy(_ id: String) async throws -> Transaction {
    let product = try await Product.products(for: [id]).first
    guard case .success(let verification) = try await XCTUnwrap(product).purchase() else {
      throw PurchaseDidNotSucceed(id: id)
    }
    return try verification.payloadValue
  }

  func testBundleAndSuiteProductsNameWhatTheyInclude() async throws {
    let products = try await Product.products(for: [bundle, suite, photo])
    let byID = Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0) })
    XCTAssertEqual(byID[bundle]?.type, .subscriptionBundle)
    XCTAssertEqual(byID[suite]?.type, .subscriptionSuite)
    XCTAssertEqual(byID[photo]?.type, .autoRenewable)
    XCTAssertEqual(byID[photo]?.subscription?.bundledSubscriptions, [])
    let included = try XCTUnwrap(byID[bundle]?.subscription?.bundledSubscriptions)
    XCTAssertEqual(included.map(\.id), [photo, video])
    XCTAssertEqual(included.map(\.subscriptionGroupID), ["AAAA0061", "AAAA0062"])
    // Described as the catalog sells them on their own.
    XCTAssertEqual(included.first?.price, byID[photo]?.price)
    XCTAssertEqual(included.first?.displayPrice, byID[photo]?.displayPrice)
    XCTAssertEqual(included.first?.displayName, byID[photo]?.displayName)
    XCTAssertEqual(included.first?.subscriptionGroupLevel, byID[photo]?.subscription?.groupLevel)
    XCTAssertEqual(included.first?.subscriptionGroupDisplayName, byID[photo]?.subscription?.groupDisplayName)
    let members = try XCTUnwrap(byID[suite]?.subscription?.bundledSubscriptions)
    XCTAssertEqual(members.map(\.displayName), ["Studio Editor", "Studio Cloud"])
    XCTAssertEqual(members.map(\.subscriptionGroupID), ["CCCC0061", "CCCC0061"])
  }

  func testBuyingABundleEntitlesToEachIncludedSubscriptionWithTheBundleFields() async throws {
    let purchase = try await buy(bundle)
    XCTAssertEqual(purchase.productID, bundle)
    XCTAssertNil(purchase.bundleProductID)
    XCTAssertNil(purchase.previousOriginalTransactionID)
    let entitled = await entitlements()
    XCTAssertEqual(Set(entitled.map(\.productID)), [bundle, photo, video])
    let videoEntitlements = await entitlements(for: video)
    let component = try XCTUnwrap(videoEntitlements.first)
    XCTAssertEqual(component.bundleProductID, bundle)
    XCTAssertEqual(component.bundleTransactionID, String(purchase.id))
    XCTAssertEqual(component.bundleOriginalTransactionID, String(purchase.originalID))
    XCTAssertEqual(component.bundleSubscriptionGroupID, "BBBB0061")
    XCTAssertEqual(component.subscriptionGroupID, "AAAA0062")
    XCTAssertEqual(component.expirationDate, purchase.expirationDate)
    XCTAssertEqual(component.price, 0)
    let payload = try XCTUnwrap(JSONSerialization.jsonObject(with: component.jsonRepresentation) as? [String: Any])
    XCTAssertEqual(payload["bundleProductId"] as? String, bundle)

    // Renewed together: the components of the renewal point at the renewal.
    try session.forceRenewalOfSubscription(productIdentifier: bundle)
    let bundleEntitlements = await entitlements(for: bundle)
    let renewal = try XCTUnwrap(bundleEntitlements.first)
    XCTAssertNotEqual(renewal.id, purchase.id)
    let photoEntitlements = await entitlements(for: photo)
    let renewed = try XCTUnwrap(photoEntitlements.first)
    XCTAssertEqual(renewed.bundleTransactionID, String(renewal.id))
    XCTAssertEqual(renewed.bundleOriginalTransactionID, String(purchase.originalID))

    // The included subscription's group lists the bundle's chain: its state, its renewal info,
    // the component's transaction.
    let videoProducts = try await Product.products(for: [video])
    let videoInfo = try XCTUnwrap(videoProducts.first?.subscription)
    let videoGroup = try await videoInfo.status
    XCTAssertEqual(videoGroup.map(\.state), [.subscribed])
    XCTAssertEqual(videoGroup.first?.transaction.unsafePayloadValue.bundleProductID, bundle)
    XCTAssertEqual(videoGroup.first?.renewalInfo.unsafePayloadValue.currentProductID, bundle)
    let byComponent = await renewed.subscriptionStatus
    XCTAssertEqual(byComponent?.transaction.unsafePayloadValue.id, renewed.id)

    // The bundle's end ends them.
    try session.expireSubscription(productIdentifier: bundle)
    let left = await entitlements()
    XCTAssertEqual(left.map(\.productID), [])
    let afterEnd = try await videoInfo.status
    XCTAssertEqual(afterEnd.count, 0, "an ended bundle is no status of the included subscription's group")
  }

  func testSwitchingStandaloneToBundleAndBack() async throws {
    let standalone = try await buy(photo)
    let purchase = try await buy(bundle)
    XCTAssertEqual(purchase.previousOriginalTransactionID, standalone.originalID)
    var revoked: Transaction?
    for await element in Transaction.all(for: photo) where element.unsafePayloadValue.id == standalone.id {
      revoked = element.unsafePayloadValue
    }
    XCTAssertEqual(revoked?.revocationReason, .upgradedToBundle)
    XCTAssertNotNil(revoked?.revocationDate)
    let throughBundle = await entitlements(for: photo)
    XCTAssertEqual(throughBundle.first?.bundleProductID, bundle)

    let back = try await buy(photo)
    XCTAssertEqual(back.previousOriginalTransactionID, purchase.originalID)
    XCTAssertNil(back.bundleProductID)
    let photoNow = await entitlements(for: photo)
    let videoNow = await entitlements(for: video)
    let bundleNow = await entitlements(for: bundle)
    XCTAssertEqual(photoNow.map(\.id), [back.id])
    XCTAssertEqual(videoNow.count, 0)
    XCTAssertEqual(bundleNow.count, 0)
  }
  func testUpgradingBetweenTwoBundlesMovesTheIncludedEntitlements() async throws {
    // The fixture with a second bundle in the Creator Bundle's group, ranked above it, that
    // includes only Photo Pro Monthly: the change to it is an upgrade.
    let photoBundle = "fixture.v63.bundle.photo.monthly"
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/format-6.3.storekit")
    var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
    var groups = try XCTUnwrap(root["subscriptionBundleGroups"] as? [[String: Any]])
    var creator = try XCTUnwrap((groups.first?["subscriptions"] as? [[String: Any]])?.first)
    var added = creator
    added["productID"] = photoBundle
    added["internalID"] = "6400000099"
    added["referenceName"] = "Photo Bundle"
    added["bundledSubscriptions"] = [["productID": photo, "subscriptionGroupID": "AAAA0061"]]
    added["groupNumber"] = 1
    creator["groupNumber"] = 2
    groups[0]["subscriptions"] = [creator, added]
    root["subscriptionBundleGroups"] = groups
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("two-bundles-\(UUID().uuidString).storekit")
    try JSONSerialization.data(withJSONObject: root).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    session = try SKTestSession(contentsOf: url)
    session.disableDialogs = true

    let first = try await buy(bundle)
    let photoBefore = await entitlements(for: photo)
    let upgrade = try await buy(photoBundle)
    XCTAssertEqual(upgrade.originalID, first.originalID)
    let entitled = await entitlements()
    XCTAssertEqual(Set(entitled.map(\.productID)), [photoBundle, photo], "the Creator Bundle's video ends with its period")
    let photoNow = await entitlements(for: photo)
    XCTAssertEqual(photoNow.count, 1)
    XCTAssertEqual(photoNow.first?.bundleProductID, photoBundle)
    XCTAssertEqual(photoNow.first?.bundleTransactionID, String(upgrade.id))
    XCTAssertEqual(photoNow.first?.originalID, photoBefore.first?.originalID, "the product both include keeps its chain")
    let videoNow = await entitlements(for: video)
    XCTAssertEqual(videoNow.count, 0)
    var oldVideo: Transaction?
    for await element in Transaction.all(for: video) { oldVideo = element.unsafePayloadValue }
    XCTAssertEqual(oldVideo?.isUpgraded, true, "the old bundle's component is upgraded with it (B44)")
    let videoProducts = try await Product.products(for: [video])
    let videoGroup = try await XCTUnwrap(videoProducts.first?.subscription).status
    XCTAssertEqual(videoGroup.count, 0, "the new bundle includes nothing of the video group")
  }
}

/// A purchase the test needed did not end in `.success` (the test fails with it).
struct PurchaseDidNotSucceed: Error { var id: String }
