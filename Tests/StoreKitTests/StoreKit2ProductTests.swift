import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// `Product`'s transactions, its subscription's periods, offers and statuses, and the purchase
/// options that reach the engine.
final class StoreKit2ProductTests: StoreKitTestCase {
  func testLatestTransactionAndCurrentEntitlementsFollowTheHistory() async throws {
    let product = try await self.product(IDs.shopping)
    let none = await product.latestTransaction
    XCTAssertNil(none)
    guard case .success(let bought) = try await product.purchase() else { return XCTFail() }
    let latest = await product.latestTransaction
    XCTAssertEqual(latest?.unsafePayloadValue.id, bought.unsafePayloadValue.id)
    var entitled: [UInt64] = []
    for await result in product.currentEntitlements { entitled.append(result.unsafePayloadValue.id) }
    XCTAssertEqual(entitled, [bought.unsafePayloadValue.id])
    let deprecated = await legacy(product).currentEntitlement
    XCTAssertEqual(deprecated?.unsafePayloadValue.id, bought.unsafePayloadValue.id)
    try session.refundTransaction(identifier: UInt(bought.unsafePayloadValue.id))
    var after: [UInt64] = []
    for await result in product.currentEntitlements { after.append(result.unsafePayloadValue.id) }
    XCTAssertEqual(after, [])
    let refunded = await product.latestTransaction
    XCTAssertNotNil(refunded?.unsafePayloadValue.revocationDate)
    XCTAssertTrue(product.debugDescription.contains(IDs.shopping))
  }

  func testSubscriptionPeriodPresetsRangesAndFormatting() throws {
    XCTAssertEqual(Product.SubscriptionPeriod.weekly.unit, .week)
    XCTAssertEqual(Product.SubscriptionPeriod.everyThreeDays.value, 3)
    XCTAssertEqual(Product.SubscriptionPeriod.everySixMonths.value, 6)
    XCTAssertEqual(Product.SubscriptionPeriod.yearly.unit, .year)
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = try XCTUnwrap(TimeZone(identifier: "UTC"))
    let january31 = try XCTUnwrap(utc.date(from: DateComponents(year: 2026, month: 1, day: 31)))
    let range = Product.SubscriptionPeriod.monthly.dateRange(referenceDate: january31)
    XCTAssertEqual(range.lowerBound, january31)
    XCTAssertEqual(Calendar.current.date(byAdding: .month, value: 1, to: january31), range.upperBound)
    let twoWeeks = Product.SubscriptionPeriod.everyTwoWeeks.dateRange(referenceDate: january31)
    XCTAssertEqual(twoWeeks.upperBound.timeIntervalSince(twoWeeks.lowerBound), 14 * 86_400)
    let components = DateComponents(subscriptionPeriod: .everyThreeMonths)
    XCTAssertEqual(components.month, 3)
    XCTAssertEqual(DateComponents(subscriptionPeriod: .everyTwoWeeks).day, 14)
    let seconds = Product.SubscriptionPeriod.weekly.formatted(SecondsStyle(), referenceDate: january31)
    XCTAssertEqual(seconds, 7 * 86_400)
    XCTAssertLessThan(Product.SubscriptionPeriod.Unit.day, .week)
    XCTAssertLessThan(Product.SubscriptionPeriod.Unit.month, .year)
    XCTAssertEqual(Product.SubscriptionPeriod.Unit.month.localizedDescription, "Month")
  }

  func testUnitFormatStyleAndGroupDisplayNameFollowTheSession() async throws {
    let monthly = try await product(IDs.monthly)
    XCTAssertEqual(monthly.subscription?.groupDisplayName, "Premium")
    XCTAssertEqual(Product.SubscriptionPeriod.Unit.week.formatted(monthly.subscriptionPeriodUnitFormatStyle), "week")
    session.locale = Locale(identifier: "ja_JP")
    let japanese = try await product(IDs.monthly)
    XCTAssertEqual(japanese.subscription?.groupDisplayName, "プレミアム")
  }

  func testOfferTypesHaveApplesStringRawValues() async throws {
    XCTAssertEqual(Product.SubscriptionOffer.OfferType.introductory.rawValue, "introductory")
    XCTAssertEqual(Product.SubscriptionOffer.OfferType.promotional.rawValue, "promotional")
    XCTAssertEqual(Product.SubscriptionOffer.OfferType.winBack.rawValue, "winBack")
    let yearly = try await product(IDs.yearly)
    XCTAssertEqual(yearly.subscription?.introductoryOffer?.type, .introductory)
    XCTAssertEqual(yearly.subscription?.promotionalOffers.first?.type, .promotional)
    XCTAssertNotEqual(Product.SubscriptionOffer.PaymentMode.freeTrial.localizedDescription, Product.SubscriptionOffer.PaymentMode.payUpFront.localizedDescription)
    XCTAssertNotEqual(Product.SubscriptionOffer.OfferType.winBack.localizedDescription, Product.SubscriptionOffer.OfferType.promotional.localizedDescription)
  }

  func testRenewalInfoCarriesTheSignedRenewalFields() async throws {
    let monthly = try await product(IDs.monthly)
    guard case .success(let bought) = try await monthly.purchase() else { return XCTFail() }
    let found = await bought.unsafePayloadValue.subscriptionStatus
    let status = try XCTUnwrap(found)
    let info = status.renewalInfo.unsafePayloadValue
    XCTAssertEqual(info.renewalPrice, monthly.price)
    XCTAssertEqual(info.currency?.identifier, "USD")
    XCTAssertEqual(info.recentSubscriptionStartDate, bought.unsafePayloadValue.purchaseDate)
    XCTAssertEqual(info.renewalDate, bought.unsafePayloadValue.expirationDate)
    XCTAssertEqual(info.appTransactionID, bought.unsafePayloadValue.appTransactionID)
    XCTAssertEqual(info.eligibleWinBackOfferIDs, [])
    XCTAssertEqual(info.environment, bought.unsafePayloadValue.environment)
    XCTAssertTrue(info.debugDescription.contains("\"autoRenewProductId\""))
    XCTAssertEqual(legacy(info).currencyCode, "USD")
    XCTAssertEqual(legacy(info).environmentStringRepresentation, info.environment.rawValue)
    XCTAssertNotEqual(status.state.localizedDescription, Product.SubscriptionInfo.RenewalState.expired.localizedDescription)
    XCTAssertNotEqual(
      Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.agreed.localizedDescription,
      Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.pending.localizedDescription)
    XCTAssertNotEqual(
      Product.SubscriptionInfo.RenewalInfo.ExpirationReason.billingError.localizedDescription,
      Product.SubscriptionInfo.RenewalInfo.ExpirationReason.autoRenewDisabled.localizedDescription)
  }

  func testStatusUpdatesHearARenewalAndAllListsTheGroups() async throws {
    session.timeRate = .monthlyRenewalEveryThirtySeconds
    guard case .success(let bought) = try await product(IDs.monthly).purchase() else { return XCTFail() }
    await bought.unsafePayloadValue.finish()
    var updates = Product.SubscriptionInfo.Status.updates.makeAsyncIterator()
    try session.expireSubscription(productIdentifier: IDs.monthly)
    let expired = await updates.next()
    XCTAssertEqual(expired?.state, .expired)
    XCTAssertEqual(expired?.renewalInfo.unsafePayloadValue.originalTransactionID, bought.unsafePayloadValue.originalID)
    var groups: [String] = []
    for await (group, statuses) in Product.SubscriptionInfo.Status.all {
      groups.append(group)
      XCTAssertEqual(statuses.map(\.state), [.expired])
    }
    XCTAssertEqual(groups, [try XCTUnwrap(bought.unsafePayloadValue.subscriptionGroupID)])
  }

  func testPurchaseOptionsCompareByValue() {
    let data = Data([1, 2])
    XCTAssertEqual(Product.PurchaseOption.custom(key: "k", value: data), .custom(key: "k", value: data))
    XCTAssertNotEqual(Product.PurchaseOption.custom(key: "k", value: 1.0), .custom(key: "k", value: true))
    XCTAssertNotEqual(Product.PurchaseOption.custom(key: "k", value: "1"), .custom(key: "k", value: 1.0))
    XCTAssertEqual(Product.PurchaseOption.introductoryOfferEligibility(compactJWS: "a"), .introductoryOfferEligibility(compactJWS: "a"))
    let handler = Product.PurchaseOption.onStorefrontChange { _ in true }
    XCTAssertEqual(handler, handler)
    XCTAssertNotEqual(handler, .onStorefrontChange { _ in true })
    XCTAssertEqual(Product.PurchaseOption.quantity(2).debugDescription, "quantity(2)")
  }

  func testACompactJWSOfferThatIsNotSignedIsRefused() async throws {
    let yearly = try await product(IDs.yearly)
    let offerID = try XCTUnwrap(yearly.subscription?.promotionalOffers.first?.id)
    do {
      _ = try await yearly.purchase(options: Set(Product.PurchaseOption.promotionalOffer(offerID, compactJWS: "not.a.jws")))
      XCTFail("purchased with an unsigned offer")
    } catch Product.PurchaseError.invalidOfferSignature {
    }
  }

  func testAWinBackOfferIsAppliedToALapsedSubscriberOnly() async throws {
    session = try SKTestSession(contentsOf: try Self.catalogWithWinBackOffer())
    session.disableDialogs = true
    let monthly = try await product(IDs.monthly)
    let offer = try XCTUnwrap(monthly.subscription?.winBackOffers.first)
    XCTAssertEqual(offer.type, .winBack)
    guard case .success(let first) = try await monthly.purchase() else { return XCTFail() }
    await first.unsafePayloadValue.finish()
    do {
      _ = try await monthly.purchase(options: [.winBackOffer(offer)])
      XCTFail("a subscriber got a win-back offer")
    } catch Product.PurchaseError.ineligibleForOffer {
    }
    var messages = Message.messages.makeAsyncIterator()
    try session.expireSubscription(productIdentifier: IDs.monthly)
    let message = await messages.next()
    XCTAssertEqual(message?.reason, .winBackOffer)
    let lapsed = try await Product.SubscriptionInfo.status(transactionID: first.unsafePayloadValue.id)
    XCTAssertEqual(lapsed?.renewalInfo.unsafePayloadValue.eligibleWinBackOfferIDs, [offer.id].compactMap { $0 })
    guard case .success(let back) = try await monthly.purchase(options: [.winBackOffer(offer)]) else { return XCTFail() }
    XCTAssertEqual(back.unsafePayloadValue.offer?.type, .winBack)
    XCTAssertEqual(back.unsafePayloadValue.offer?.id, offer.id)
  }

  func testOnStorefrontChangeIsAskedAndFalseStopsThePurchase() async throws {
    session.disableDialogs = false
    let product = try await self.product(IDs.coins100)
    let asked = AskedStorefronts()
    let purchase = Task {
      try await product.purchase(options: [.onStorefrontChange { storefront in asked.append(storefront.countryCode) }])
    }
    try await waitUntil { self.session.allTransactions().contains { $0.state == .purchasing } }
    session.storefront = "GBR"
    do {
      let result = try await purchase.value
      XCTFail("the purchase went on: \(result)")
    } catch {
      XCTAssertEqual(asked.values, ["GBR"])
    }
  }

  func testOnStorefrontChangeThatContinuesLeavesThePurchaseToTheSheet() async throws {
    session.disableDialogs = false
    let product = try await self.product(IDs.coins100)
    let asked = AskedStorefronts(answer: true)
    let purchase = Task {
      try await product.purchase(options: [.onStorefrontChange { storefront in asked.append(storefront.countryCode) }])
    }
    try await waitUntil { self.session.allTransactions().contains { $0.state == .purchasing } }
    session.storefront = "GBR"
    try await waitUntil { asked.values == ["GBR"] }
    try session.confirmPurchaseSheet()
    guard case .success(let verification) = try await purchase.value else { return XCTFail("not purchased") }
    XCTAssertEqual(verification.unsafePayloadValue.productID, IDs.coins100)
  }

  /// A new session's transaction ids start over: the handler of a purchase the previous session
  /// ended is not asked about the next session's purchase with the same id.
  func testAStorefrontHandlerOfAnEndedSessionIsNotAskedInTheNext() async throws {
    session.disableDialogs = false
    let product = try await self.product(IDs.coins100)
    let asked = AskedStorefronts()
    let abandoned = Task {
      try await product.purchase(options: [.onStorefrontChange { storefront in asked.append(storefront.countryCode) }])
    }
    try await waitUntil { self.session.allTransactions().contains { $0.state == .purchasing } }
    session = try SKTestSession(contentsOf: Self.catalogURL)
    _ = try? await abandoned.value
    session.disableDialogs = false
    let again = try await self.product(IDs.coins100)
    let purchase = Task { try await again.purchase() }
    try await waitUntil { self.session.allTransactions().contains { $0.state == .purchasing } }
    session.storefront = "GBR"
    try session.confirmPurchaseSheet()
    guard case .success = try await purchase.value else { return XCTFail("the purchase did not go on") }
    XCTAssertEqual(asked.values, [], "the ended session's handler was asked")
  }

  // MARK: Helpers

  /// Waits (bounded, by yielding) until `condition` holds.
  func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<100_000 where !condition() { await Task.yield() }
    XCTAssertTrue(condition(), "condition never held")
  }

  func product(_ id: String) async throws -> Product {
    let products = try await Product.products(for: [id])
    return try XCTUnwrap(products.first)
  }

  /// The test catalog with a win-back offer on the monthly subscription, written to a temporary file.
  static func catalogWithWinBackOffer() throws -> URL {
    let data = try Data(contentsOf: try catalogURL)
    var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    var groups = try XCTUnwrap(root["subscriptionGroups"] as? [[String: Any]])
    var subscriptions = try XCTUnwrap(groups[0]["subscriptions"] as? [[String: Any]])
    let index = try XCTUnwrap(subscriptions.firstIndex { $0["productID"] as? String == IDs.monthly })
    subscriptions[index]["winbackOffers"] = [[
      "displayPrice": "0.99", "internalID": "5A5A5A01", "numberOfPeriods": 1, "offerID": "\(IDs.monthly).winback",
      "paymentMode": "payAsYouGo", "referenceName": "Come Back", "subscriptionPeriod": "P1M",
    ]]
    groups[0]["subscriptions"] = subscriptions
    root["subscriptionGroups"] = groups
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("winback-\(UUID().uuidString).storekit")
    try JSONSerialization.data(withJSONObject: root).write(to: url)
    return url
  }
}

/// The storefronts an `onStorefrontChange` handler was asked about, and its answer.
final class AskedStorefronts: @unchecked Sendable {
  private let lock = NSLock()
  private var asked: [String] = []
  let answer: Bool

  init(answer: Bool = false) { self.answer = answer }

  var values: [String] {
    lock.lock()
    defer { lock.unlock() }
    return asked
  }

  func append(_ code: String) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    asked.append(code)
    return answer
  }
}

/// A format style of durations that gives whole seconds, to check `formatted(_:referenceDate:)`.
struct SecondsStyle: FormatStyle {
  func format(_ value: Duration) -> Int64 { value.components.seconds }
}
