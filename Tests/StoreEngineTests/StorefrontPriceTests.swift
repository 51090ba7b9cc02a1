import Foundation
import StorefrontTestSupport
import XCTest

@testable import StoreEngine

/// B61: a catalog price in a whole-unit currency (KRW, JPY, …) is charged in whole units; the
/// sheet, the charge, the renewal, the signed `price` and the listing agree.
final class StorefrontPriceTests: XCTestCase {
  typealias F = FixtureCatalog
  let day: TimeInterval = 86_400

  private func price(_ text: String) -> Decimal { Decimal(string: text) ?? -1 }

  func testB61MinorUnitsAgreeWithFoundationForEveryStorefrontCurrency() {
    // The currency formatter (CLDR) decides what a price shows; the charge must have as many digits.
    for currency in Set(Storefront.all.map(\.currencyCode)).sorted() {
      let shown = PriceFormatter.string(for: price("1.25"), currencyCode: currency, locale: "en_US_POSIX")
      let digits = shown.reversed().prefix { $0.isNumber }.count
      let hasFraction = shown.contains(".")
      XCTAssertEqual(Money.minorUnits(of: currency), hasFraction ? digits : 0, "\(currency): \(shown)")
    }
  }

  func testB61RoundingIsHalfUpToTheMinorUnits() {
    XCTAssertEqual(Money.rounded(price("0.99"), currencyCode: "KRW"), 1)
    XCTAssertEqual(Money.rounded(price("2.5"), currencyCode: "JPY"), 3)
    XCTAssertEqual(Money.rounded(price("0.49"), currencyCode: "krw"), 0)
    XCTAssertEqual(Money.rounded(price("0.99"), currencyCode: "USD"), price("0.99"))
    XCTAssertEqual(Money.rounded(price("1.005"), currencyCode: "EUR"), price("1.01"))
    // The formatter shows what is charged: half up, where Foundation alone would round half even.
    XCTAssertEqual(PriceFormatter.string(for: price("2.5"), currencyCode: "JPY", locale: "en_US"), "¥3")
    XCTAssertEqual(Money(charging: price("2.99"), in: try XCTUnwrap(Storefront.lookup("KOR"))), Money(3, currencyCode: "KRW"))
  }

  func testB61KoreanPurchaseSheetChargeAndSignedPriceAreWholeWon() throws {
    let gems: Product.ID = "gems"
    let catalog = Catalog(products: [Product(id: gems, kind: .consumable, referenceName: "Gems", price: price("1.4"))])
    let store = try TestStore(catalog: catalog, dialogs: true)
    try store.queue.set(.storefront("KOR"))
    let id = try store.queue.add(Payment(productID: gems, quantity: 3))
    // 1.4 is ₩1 a unit, so three cost ₩3: the unit price is rounded, not the total (₩4.2 → ₩4).
    XCTAssertEqual(store.queue.prompt, .confirm(transaction: id, product: gems, quantity: 3, alreadyOwned: false, price: Money(3, currencyCode: "KRW")))
    try store.queue.confirm()
    let bought = try XCTUnwrap(try store.queue.transaction(id))
    XCTAssertEqual(bought.price, 3)
    XCTAssertEqual(bought.currency, "KRW")
    let payload = TestStore.payload(of: bought.signedTransaction)
    XCTAssertEqual(payload["price"] as? Int, 3000)
    XCTAssertEqual(payload["currency"] as? String, "KRW")
    XCTAssertEqual(payload["storefront"] as? String, "KOR")
  }

  func testB61JapaneseSubscriptionRenewsInWholeYen() throws {
    let store = try TestStore()
    try store.queue.set(.storefront("JPN"))
    let first = try store.buy(F.yearly)
    XCTAssertEqual(first.price, 30)  // 29.99 → ¥30
    XCTAssertEqual(TestStore.payload(of: first.signedTransaction)["price"] as? Int, 30_000)
    XCTAssertEqual(TestStore.payload(of: first.signedRenewalInfo)["renewalPrice"] as? Int, 30_000)
    try store.queue.advance(by: 366 * day)
    let renewal = try XCTUnwrap(try store.queue.history().last)
    XCTAssertEqual(renewal.reason, .renewal)
    XCTAssertEqual(renewal.price, 30)
    XCTAssertEqual(TestStore.payload(of: renewal.signedTransaction)["price"] as? Int, 30_000)
  }

  func testB61RenewalsBillInTheCurrentStorefront() throws {
    let store = try TestStore()
    try store.queue.set(.storefront("FRA"))
    let first = try store.buy(F.yearly)
    XCTAssertEqual(first.currency, "EUR")
    try store.queue.set(.storefront("KOR"))
    try store.queue.advance(by: 366 * day)
    let renewal = try XCTUnwrap(try store.queue.history().last)
    XCTAssertEqual(renewal.reason, .renewal)
    XCTAssertEqual(renewal.storefront, "KOR")
    XCTAssertEqual(renewal.currency, "KRW")
    XCTAssertEqual(renewal.price, 30)
    let payload = TestStore.payload(of: renewal.signedTransaction)
    XCTAssertEqual(payload["storefront"] as? String, "KOR")
    XCTAssertEqual(payload["storefrontId"] as? String, "143466")
    XCTAssertEqual(payload["price"] as? Int, 30_000)
  }

  func testB61OfferPricesAreWholeUnitsToo() throws {
    var environment = TestStore.environment
    environment.offerSignatureVerifier = TestOfferKey()
    let store = try TestStore(environment: environment)
    try store.queue.set(.storefront("KOR"))
    // A promotional offer is for a former subscriber, with a signature (B51).
    try store.queue.expireSubscription(store.buy(F.monthly).id)
    let nonce = UUID(uuidString: "4F3B1C2D-0000-4000-8000-000000000002") ?? UUID()
    let timestamp = SignedPayloads.milliseconds(store.queue.now)
    let message = PaymentDiscount.message(
      bundleID: StoreEnvironment.defaultBundleID, keyIdentifier: TestOfferKey.keyID, productID: F.monthly,
      offerID: "winback50", applicationUsername: nil, nonce: nonce, timestamp: timestamp)
    let discount = PaymentDiscount(
      identifier: "winback50", keyIdentifier: TestOfferKey.keyID, nonce: nonce, signature: TestOfferKey.signature(of: message),
      timestamp: timestamp)
    let id = try store.queue.add(Payment(productID: F.monthly, offerID: "winback50", discount: discount))
    let bought = try XCTUnwrap(try store.queue.transaction(id))
    XCTAssertEqual(bought.offerType, .promotional)
    XCTAssertEqual(bought.price, 5)  // 4.99 → ₩5
  }

  func testB61TwoDecimalCurrenciesAreUnchanged() throws {
    let store = try TestStore()
    let bought = try store.buy(F.coins)
    XCTAssertEqual(bought.price, price("0.99"))
    XCTAssertEqual(TestStore.payload(of: bought.signedTransaction)["price"] as? Int, 990)
  }
}
