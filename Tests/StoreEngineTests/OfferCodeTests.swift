import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// B87–B89: App Store Connect's offer codes — one-time-use codes in batches and custom codes with a
/// limit and an expiry — redeemed once per customer per offer, refused with nothing charged.
final class OfferCodeTests: XCTestCase {
  typealias F = FixtureCatalog

  func generate(_ store: TestStore, _ product: Product.ID = F.removeAds, count: Int, expires: OfferCodeExpiry? = nil) throws -> [OfferCode] {
    let before = Set(store.queue.offerCodes.map(\.code))
    try store.queue.perform(.offerCodes(.generate(OfferCodeOffer(productID: product, offer: "launch"), count: count, expires: expires)))
    return store.queue.offerCodes.filter { !before.contains($0.code) }
  }

  func refusal(_ body: () throws -> Void) -> OfferCodeRefusal? {
    do {
      try body()
    } catch let EngineError.offerCodeRefused(_, because: why) {
      return why
    } catch {
      XCTFail("expected an offer-code refusal, got \(error)")
    }
    return nil
  }

  func testOneTimeCodesAreSeededRandomAndRedeemOnceAsAOneTimeOffer() throws {
    let store = try TestStore()
    let codes = try generate(store, count: 3)
    XCTAssertEqual(codes.count, 3)
    XCTAssertEqual(Set(codes.map(\.code)).count, 3)
    for code in codes {
      XCTAssertEqual(code.code.count, 16)
      XCTAssertEqual(code.kind, .oneTime)
      XCTAssertEqual(code.limit, 1)
      XCTAssertEqual(code.batch, 1)
    }
    // The same seed makes the same codes: generation draws from the store's seeded generator.
    XCTAssertEqual(try generate(TestStore(), count: 3).map(\.code), codes.map(\.code))

    let id = try store.queue.redeemOfferCode(codes[0].code.lowercased())
    let transaction = try XCTUnwrap(store.queue.transaction(id))
    XCTAssertEqual(transaction.state, .purchased)
    XCTAssertEqual(transaction.price, 0)
    XCTAssertEqual(transaction.offerType, .code)
    XCTAssertEqual(transaction.offerPaymentMode, .oneTime)
    XCTAssertEqual(transaction.offerID, "launch")
    let payload = TestStore.payload(of: transaction.signedTransaction)
    XCTAssertEqual(payload["offerType"] as? Int, 3)
    XCTAssertEqual(payload["offerDiscountType"] as? String, "ONE_TIME")
    XCTAssertEqual(payload["offerIdentifier"] as? String, "launch")
    XCTAssertEqual(store.queue.offerCodes.first { $0.code == codes[0].code }?.redemptions, 1)

    // Used twice: refused for anyone, nothing charged, no transaction.
    try store.queue.signIn("other")
    let count = try store.queue.transactionCount()
    XCTAssertEqual(refusal { _ = try store.queue.redeemOfferCode(codes[0].code) }, .alreadyRedeemed)
    XCTAssertEqual(try store.queue.transactionCount(), count)
    // A second batch is numbered on.
    XCTAssertEqual(try generate(store, count: 1).first?.batch, 2)
  }

  func testACustomCodeRedeemsUpToItsLimitOncePerCustomer() throws {
    let store = try TestStore()
    let offer = OfferCodeOffer(productID: F.coins, offer: "spring", price: Decimal(string: "0.99"))
    try store.queue.perform(.offerCodes(.create("Spring25", offer, limit: 2, expires: nil)))
    let first = try XCTUnwrap(store.queue.transaction(try store.queue.redeemOfferCode("spring25")))
    XCTAssertEqual(first.state, .purchased)
    XCTAssertEqual(first.price, Decimal(string: "0.99"))
    XCTAssertEqual(first.offerPaymentMode, .oneTime)
    // One code per customer per offer: the same customer again is refused (ineligibleForOffer to the app).
    let again = refusal { _ = try store.queue.redeemOfferCode("SPRING25") }
    XCTAssertEqual(again, .redeemedByCustomer(account: "tester", code: "SPRING25"))
    XCTAssertEqual(again?.storeKitError, .ineligibleForOffer)
    try store.queue.signIn("second")
    XCTAssertEqual(try store.queue.transaction(try store.queue.redeemOfferCode("SPRING25"))?.state, .purchased)
    try store.queue.signIn("third")
    XCTAssertEqual(refusal { _ = try store.queue.redeemOfferCode("SPRING25") }, .limitReached(2))
    XCTAssertEqual(store.queue.offerCodes.first?.redemptions, 2)
    // A duplicate name is not made again.
    XCTAssertThrowsError(try store.queue.perform(.offerCodes(.create("spring25", offer, limit: 5, expires: nil))))
  }

  func testCodesExpireOnTheStoresClock() throws {
    let store = try TestStore()
    let offer = OfferCodeOffer(productID: F.seasonPass, offer: "week")
    try store.queue.perform(.offerCodes(.create("WEEK", offer, limit: 10, expires: .after(DateComponents(day: 7)))))
    let codes = try generate(store, count: 1, expires: .after(DateComponents(day: 7)))
    try store.queue.advance(by: 8 * 86_400)
    XCTAssertEqual(refusal { _ = try store.queue.redeemOfferCode("WEEK") }, .expired(TestStore.start.addingTimeInterval(7 * 86_400)))
    if case .expired? = refusal({ _ = try store.queue.redeemOfferCode(codes[0].code) }) {} else { XCTFail("expected expired") }
    XCTAssertEqual(store.queue.offerCodes.map(\.redemptions), [0, 0])
    // One-time codes live at most six months, as App Store Connect allows.
    XCTAssertThrowsError(try generate(store, count: 1, expires: .after(DateComponents(month: 7)))) { error in
      guard case EngineError.cannotMakeOfferCodes = error else { return XCTFail("\(error)") }
    }
  }

  func testACancelledSheetLeavesTheCodeUnredeemed() throws {
    let store = try TestStore(dialogs: true)
    let code = try XCTUnwrap(try generate(store, F.coins, count: 1).first)
    let id = try store.queue.redeemOfferCode(code.code)
    guard case .confirm(_, _, _, _, let price, _)? = store.queue.prompt else { return XCTFail("no sheet") }
    XCTAssertEqual(price.amount, 0, "the sheet states the code's price")
    try store.queue.perform(.cancel)
    XCTAssertEqual(try store.queue.transaction(id)?.state, .failed)
    XCTAssertEqual(store.queue.offerCodes.first?.redemptions, 0)
    _ = try store.queue.redeemOfferCode(code.code)
    try store.queue.perform(.confirm)
    XCTAssertEqual(store.queue.offerCodes.first?.redemptions, 1)
  }

  /// B23 for a code: a code typed for a non-consumable the customer owns already re-downloads it
  /// for free, as buying it again does (the existing transaction, nothing charged), and the code is
  /// not used: it stays redeemable and the customer's one-per-offer record is not written.
  func testACodeForAnOwnedNonConsumableIsTheFreeRedownloadAndStaysUnused() throws {
    let store = try TestStore()
    let owned = try store.buy(F.removeAds)
    XCTAssertEqual(owned.state, .purchased)
    let code = try XCTUnwrap(try generate(store, count: 1).first)
    let again = try XCTUnwrap(store.queue.transaction(try store.queue.redeemOfferCode(code.code)))
    XCTAssertEqual(again.state, .purchased)
    XCTAssertEqual(again.price, 0)
    XCTAssertEqual(again.originalID, owned.originalID)
    XCTAssertEqual(again.signedTransaction, owned.signedTransaction, "no new signed transaction (B23)")
    XCTAssertNil(again.offerType)
    XCTAssertNil(again.offerID)
    XCTAssertEqual(store.queue.offerCodes.first?.redemptions, 0, "the code is not used")
    // Still this customer's to use for the offer, and still redeemable by someone else.
    XCTAssertEqual(try store.queue.transaction(try store.queue.redeemOfferCode(code.code))?.price, 0)
    try store.queue.signIn("newcomer")
    let bought = try XCTUnwrap(store.queue.transaction(try store.queue.redeemOfferCode(code.code)))
    XCTAssertEqual(bought.offerType, .code)
    XCTAssertEqual(store.queue.offerCodes.first?.redemptions, 1)
  }

  func testCodesAndRedemptionsPersistInTheLedger() throws {
    let ledger = InMemoryLedgerStore()
    let store = try TestStore(ledger: ledger)
    let codes = try generate(store, count: 2)
    _ = try store.queue.redeemOfferCode(codes[1].code)
    let relaunched = try PaymentQueue(catalog: F.make(), ledger: ledger, environment: TestStore.environment)
    XCTAssertEqual(relaunched.offerCodes, store.queue.offerCodes)
    XCTAssertEqual(relaunched.offerCodes.map(\.redemptions).reduce(0, +), 1)
  }

  func testCodesForUnknownProductsOrOffersAreNotMade() throws {
    let store = try TestStore()
    for offer in [
      OfferCodeOffer(productID: "com.example.nothing", offer: "x"),
      OfferCodeOffer(productID: F.monthly, offer: "no-such-offer"),
      OfferCodeOffer(productID: F.coins, offer: " "),
    ] {
      XCTAssertThrowsError(try store.queue.perform(.offerCodes(.generate(offer, count: 1, expires: nil)))) { error in
        guard case EngineError.cannotMakeOfferCodes = error else { return XCTFail("\(error)") }
      }
    }
    XCTAssertThrowsError(try store.queue.perform(.offerCodes(.create("NO SPACES", OfferCodeOffer(productID: F.coins, offer: "a"), limit: 1, expires: nil))))
    XCTAssertTrue(store.queue.offerCodes.isEmpty)
  }

  func testARedemptionURLNamesItsCode() {
    XCTAssertEqual(OfferCode.typed("https://apps.apple.com/redeem?ctx=offercodes&id=123&code=SPRING25"), "SPRING25")
    XCTAssertEqual(OfferCode.typed("  spring25 "), "spring25")
    let code = OfferCode(code: "spring25", kind: .custom, productID: F.coins, offerID: "a", limit: 1, expires: nil, created: TestStore.start)
    XCTAssertEqual(code.redemptionURL(appAppleID: "123"), "https://apps.apple.com/redeem?ctx=offercodes&id=123&code=SPRING25")
  }
}
