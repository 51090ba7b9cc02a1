import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// `Transaction`'s newer and deprecated fields, each read from the signed payload.
final class StoreKit2TransactionFieldsTests: StoreKitTestCase {
  func testAnIntroductoryOfferShowsInOfferAndInTheDeprecatedAccessors() async throws {
    guard case .success(let verification) = try await Product.products(for: [IDs.monthly]).first?.purchase() else { return XCTFail() }
    let transaction = verification.unsafePayloadValue
    let offer = try XCTUnwrap(transaction.offer)
    XCTAssertEqual(offer.type, .introductory)
    XCTAssertEqual(offer.paymentMode, .freeTrial)
    XCTAssertEqual(offer.period, Product.SubscriptionPeriod.weekly)
    XCTAssertNil(offer.id)
    let old = legacy(transaction)
    XCTAssertTrue(old.offerType == .introductory)
    XCTAssertNil(old.offerID)
    XCTAssertEqual(old.offerPaymentModeStringRepresentation, "FREE_TRIAL")
    XCTAssertEqual(old.offerPeriodStringRepresentation, "P1W")
    XCTAssertEqual(old.reasonStringRepresentation, "PURCHASE")
    XCTAssertEqual(old.storefrontCountryCode, "USA")
    XCTAssertEqual(old.currencyCode, "USD")
    let payload = try XCTUnwrap(JSONSerialization.jsonObject(with: transaction.jsonRepresentation) as? [String: Any])
    XCTAssertEqual(old.environmentStringRepresentation, payload["environment"] as? String)
    XCTAssertEqual(transaction.environment.rawValue, payload["environment"] as? String)
    // Under an SKTestSession the store signs as Xcode does.
    XCTAssertEqual(transaction.environment, .xcode)
    let status = await transaction.subscriptionStatus
    XCTAssertEqual(status?.renewalInfo.unsafePayloadValue.environment, .xcode)
  }

  func testAPurchaseWithoutOfferHasNoOfferFields() async throws {
    guard case .success(let verification) = try await Product.products(for: [IDs.shopping]).first?.purchase() else { return XCTFail() }
    let old = legacy(verification.unsafePayloadValue)
    XCTAssertNil(verification.unsafePayloadValue.offer)
    XCTAssertNil(old.offerType)
    XCTAssertNil(old.offerPeriodStringRepresentation)
  }

  func testAppTransactionIDMatchesTheAppTransaction() async throws {
    guard case .success(let verification) = try await Product.products(for: [IDs.shopping]).first?.purchase() else { return XCTFail() }
    let app = try await AppTransaction.shared.unsafePayloadValue
    XCTAssertFalse(verification.unsafePayloadValue.appTransactionID.isEmpty)
    XCTAssertEqual(verification.unsafePayloadValue.appTransactionID, app.appTransactionID)
  }

  func testSubscriptionStatusOfATransactionFollowsItsChain() async throws {
    guard case .success(let bought) = try await Product.products(for: [IDs.monthly]).first?.purchase() else { return XCTFail() }
    let transaction = bought.unsafePayloadValue
    let subscribed = await transaction.subscriptionStatus
    XCTAssertEqual(subscribed?.state, .subscribed)
    XCTAssertEqual(subscribed?.transaction.unsafePayloadValue.originalID, transaction.originalID)
    try session.expireSubscription(productIdentifier: IDs.monthly)
    let expired = await transaction.subscriptionStatus
    XCTAssertEqual(expired?.state, .expired)
    let byID = try await Product.SubscriptionInfo.status(transactionID: transaction.id)
    XCTAssertEqual(byID?.state, .expired)
    guard case .success(let coins) = try await Product.products(for: [IDs.coins100]).first?.purchase() else { return XCTFail() }
    let none = await coins.unsafePayloadValue.subscriptionStatus
    XCTAssertNil(none)
    let unknown = try await Product.SubscriptionInfo.status(transactionID: 999_999)
    XCTAssertNil(unknown)
  }

  func testAllForAProductListsOnlyItsTransactions() async throws {
    guard case .success(let first) = try await Product.products(for: [IDs.coins100]).first?.purchase() else { return XCTFail() }
    guard case .success(let other) = try await Product.products(for: [IDs.shopping]).first?.purchase() else { return XCTFail() }
    var ids: [UInt64] = []
    for await result in Transaction.all(for: IDs.coins100) { ids.append(result.unsafePayloadValue.id) }
    XCTAssertEqual(ids, [first.unsafePayloadValue.id])
    var shopping: [UInt64] = []
    for await result in Transaction.all(for: IDs.shopping) { shopping.append(result.unsafePayloadValue.id) }
    XCTAssertEqual(shopping, [other.unsafePayloadValue.id])
  }

  func testDebugDescriptionIsThePayload() async throws {
    guard case .success(let verification) = try await Product.products(for: [IDs.shopping]).first?.purchase() else { return XCTFail() }
    let text = verification.unsafePayloadValue.debugDescription
    XCTAssertTrue(text.contains("\"productId\" : \"\(IDs.shopping)\""), text)
  }

  func testLocalizedDescriptionsAndPaymentModes() {
    XCTAssertEqual(Transaction.OfferType.winBack.rawValue, 4)
    XCTAssertNotEqual(Transaction.OfferType.code.localizedDescription, Transaction.OfferType.promotional.localizedDescription)
    XCTAssertNotEqual(Transaction.RevocationReason.developerIssue.localizedDescription, Transaction.RevocationReason.other.localizedDescription)
    XCTAssertNotEqual(Transaction.OwnershipType.purchased.localizedDescription, Transaction.OwnershipType.familyShared.localizedDescription)
    XCTAssertEqual(Transaction.Offer.PaymentMode.oneTime.rawValue, "ONE_TIME")
    XCTAssertNotNil(Transaction.RefundRequestError.duplicateRequest.errorDescription)
    XCTAssertNotEqual(Transaction.RefundRequestStatus.success, .userCancelled)
  }

  func testRefundedTransactionCarriesItsRevocationReasonDescription() async throws {
    guard case .success(let bought) = try await Product.products(for: [IDs.shopping]).first?.purchase() else { return XCTFail() }
    try session.refundTransaction(identifier: UInt(bought.unsafePayloadValue.id))
    let latest = await Transaction.latest(for: IDs.shopping)
    let reason = try XCTUnwrap(latest?.unsafePayloadValue.revocationReason)
    XCTAssertEqual(reason.localizedDescription, Transaction.RevocationReason.other.localizedDescription)
  }
}
