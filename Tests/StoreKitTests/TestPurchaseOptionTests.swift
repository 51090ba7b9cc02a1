import Foundation
import StoreKit
import StoreKitTest
import StorefrontProcessTestSupport
import XCTest

/// StoreKitTest's purchase options for `buyProduct(identifier:options:)`: a promotional offer by id
/// without a signature, an offer code by reference name, and a purchase at a past date.
final class TestPurchaseOptionTests: StoreKitTestCase {
  func testPromotionalOfferByIDNeedsNoSignature() async throws {
    let comeback = "com.jake.sample.ExInAppPurchase.premium.yearly.comeback"
    // Promotional offers are for customers who subscribed before.
    try await session.buyProduct(identifier: IDs.yearly)
    try session.expireSubscription(productIdentifier: IDs.yearly)
    let transaction = try await session.buyProduct(identifier: IDs.yearly, options: [.promotionalOffer(id: comeback)])
    XCTAssertEqual(transaction.offer?.id, comeback)
    XCTAssertEqual(transaction.offer?.type, .promotional)
    XCTAssertEqual(transaction.price, Decimal(string: "29.99"), "the offer's price, not the list price")
    let record = try XCTUnwrap(session.allTransactions().last)
    XCTAssertEqual(record.productIdentifier, IDs.yearly)
    XCTAssertEqual(record.state, .purchased)
  }

  func testAnUnknownPromotionalOfferIsRefused() async throws {
    do {
      try await session.buyProduct(identifier: IDs.yearly, options: [.promotionalOffer(id: "no.such.offer")])
      XCTFail("bought an offer the product lacks")
    } catch SKTestError.invalidAction {
      // The store refused it: invalidOfferIdentifier.
    }
  }

  func testCodeOfferByReferenceName() async throws {
    session = try SKTestSession(contentsOf: try catalogWithCodeOffer())
    session.disableDialogs = true
    let transaction = try await session.buyProduct(identifier: IDs.monthly, options: [.codeOffer(referenceName: "Spring Code")])
    XCTAssertEqual(transaction.offer?.type, .code)
    XCTAssertEqual(transaction.offer?.id, "Spring Code", "a code offer's identifier is its reference name, as Apple signs it")
    XCTAssertEqual(transaction.price, 0, "a free month")
    do {
      try await session.buyProduct(identifier: IDs.monthly, options: [.codeOffer(referenceName: "Autumn")])
      XCTFail("bought an offer code the product lacks")
    } catch let error as SKTestError {
      XCTAssertEqual(error.code, .invalidProductIdentifier)
      XCTAssertTrue(error.message.contains("Spring Code"), error.message)
    }
  }

  func testAPastPurchaseRenewsUntilNow() async throws {
    session.timeRate = .oneRenewalEveryMinute
    try session.advance(by: 0)
    let now = session.date
    let first = try await session.buyProduct(identifier: IDs.monthly, options: [.purchaseDate(now.addingTimeInterval(-150))])
    XCTAssertEqual(first.purchaseDate, now.addingTimeInterval(-150))
    XCTAssertEqual(session.date, now, "the clock did not move")
    let chain = session.allTransactions().filter { $0.productIdentifier == IDs.monthly }
    XCTAssertEqual(chain.map(\.purchaseDate), [-150, -90, -30].map { now.addingTimeInterval($0) }, "renewed every minute up to now")
    XCTAssertEqual(chain.last?.expirationDate, now.addingTimeInterval(30))
    XCTAssertEqual(chain.last?.autoRenewingEnabled, true)
  }

  func testAPastPurchaseCancelledImmediatelyHasExpired() async throws {
    session.timeRate = .oneRenewalEveryMinute
    try session.advance(by: 0)
    let now = session.date
    try await session.buyProduct(
      identifier: IDs.monthly, options: [.purchaseDate(now.addingTimeInterval(-150), renewalBehavior: .cancelImmediately)])
    let chain = session.allTransactions().filter { $0.productIdentifier == IDs.monthly }
    XCTAssertEqual(chain.count, 1, "no renewal")
    XCTAssertEqual(chain.first?.expirationDate, now.addingTimeInterval(-90))
    XCTAssertEqual(chain.first?.autoRenewingEnabled, false)
    var entitled: [String] = []
    for await result in Transaction.currentEntitlements { entitled.append(result.unsafePayloadValue.productID) }
    XCTAssertFalse(entitled.contains(IDs.monthly), "expired: no entitlement")
  }

  /// The fixture catalog with an offer code on the monthly plan (a free month, reference "Spring Code").
  private func catalogWithCodeOffer() throws -> URL {
    var catalog = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.catalogURL)) as? [String: Any])
    var groups = try XCTUnwrap(catalog["subscriptionGroups"] as? [[String: Any]])
    var subscriptions = try XCTUnwrap(groups[0]["subscriptions"] as? [[String: Any]])
    let index = try XCTUnwrap(subscriptions.firstIndex { $0["productID"] as? String == IDs.monthly })
    subscriptions[index]["codeOffers"] = [
      [
        "internalID": "C0DE0001", "referenceName": "Spring Code", "paymentMode": "free", "subscriptionPeriod": "P1M",
        "numberOfPeriods": 1, "displayPrice": "0", "eligibility": ["new", "existing", "expired"], "isStackable": false,
      ]
    ]
    groups[0]["subscriptions"] = subscriptions
    catalog["subscriptionGroups"] = groups
    let directory = try TemporaryDirectory(label: "storekit-code-offer")
    addTeardownBlock { directory.remove() }
    let url = directory.url.appendingPathComponent("Products.storekit")
    try JSONSerialization.data(withJSONObject: catalog).write(to: url)
    return url
  }
}
