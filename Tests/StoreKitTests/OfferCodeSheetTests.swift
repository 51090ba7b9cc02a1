import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// B89, B90: iOS 27's `AppStore.presentOfferCodeRedeemSheet` returns the transaction the code
/// makes; one-time products redeemed by a code are paid once (`oneTime`); a refused code throws
/// with nothing charged.
final class OfferCodeSheetTests: StoreKitTestCase {
  func testTheSheetReturnsTheTransactionOfTheCodeTheTestEntered() async throws {
    try session.createOfferCode("COINS99", productIdentifier: IDs.coins100, offer: "spring", limit: 1, price: Decimal(string: "0.99"))
    session.enterOfferCode("coins99")
    let result = try await AppStore.presentOfferCodeRedeemSheet()
    guard case .verified(let transaction) = result else { return XCTFail("expected a verified transaction, got \(result)") }
    XCTAssertEqual(transaction.productID, IDs.coins100)
    XCTAssertEqual(transaction.offer?.type, .code)
    XCTAssertEqual(transaction.offer?.paymentMode, .oneTime)
    XCTAssertEqual(transaction.offer?.id, "spring")
    XCTAssertEqual(transaction.price, Decimal(string: "0.99"))
    XCTAssertEqual(session.redemptions(ofOfferCode: "COINS99"), 1)
    await transaction.finish()

    // Used up: refused, nothing charged.
    let count = session.allTransactions().count
    session.enterOfferCode("COINS99")
    do {
      _ = try await AppStore.presentOfferCodeRedeemSheet()
      XCTFail("a used-up code was redeemed")
    } catch Product.PurchaseError.invalidOfferIdentifier {}
    XCTAssertEqual(session.allTransactions().count, count)

    // No code entered: the sheet closes.
    do {
      _ = try await AppStore.presentOfferCodeRedeemSheet(options: [])
      XCTFail("a sheet with no code returned a transaction")
    } catch StoreKitError.userCancelled {}
  }

  func testOneTimeCodesRedeemOncePerCustomerThroughTheSheet() async throws {
    let codes = try session.generateOfferCodes(productIdentifier: IDs.shopping, offer: "launch", count: 2)
    XCTAssertEqual(codes.count, 2)
    session.enterOfferCode("https://apps.apple.com/redeem?ctx=offercodes&id=0&code=\(codes[0])")
    guard case .verified(let first) = try await AppStore.presentOfferCodeRedeemSheet() else { return XCTFail("unverified") }
    XCTAssertEqual(first.productID, IDs.shopping)
    XCTAssertEqual(first.price, 0)
    XCTAssertEqual(first.offer?.paymentMode, .oneTime)
    // The same customer, another code of the same offer: one per customer per offer.
    session.enterOfferCode(codes[1])
    do {
      _ = try await AppStore.presentOfferCodeRedeemSheet()
      XCTFail("a customer redeemed a second code of one offer")
    } catch Product.PurchaseError.ineligibleForOffer {}
    XCTAssertEqual(session.redemptions(ofOfferCode: codes[1]), 0)
  }

  func testAnExpiredCodeIsRefused() async throws {
    try session.createOfferCode("WEEK", productIdentifier: IDs.seasonPass, offer: "week", limit: 5, expiresAfter: 7 * 86_400)
    try session.advance(by: 8 * 86_400)
    session.enterOfferCode("WEEK")
    do {
      _ = try await AppStore.presentOfferCodeRedeemSheet()
      XCTFail("an expired code was redeemed")
    } catch Product.PurchaseError.invalidOfferIdentifier {}
    XCTAssertEqual(session.redemptions(ofOfferCode: "WEEK"), 0)
  }
}
