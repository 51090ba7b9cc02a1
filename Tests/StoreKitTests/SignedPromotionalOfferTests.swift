import Foundation
import SandboxSigning
import StoreEngine
import StoreKit
import StoreKitTest
import StorefrontProcessTestSupport
import XCTest

/// A promotional offer signed by the developer's server with the store's promotional-offer key
/// (`ca/promotional-offer-key.pem`, key id `STOREFRONT`) is applied; a bad signature is refused.
final class SignedPromotionalOfferTests: StoreKitTestCase {
  private let comeback = "com.jake.sample.ExInAppPurchase.premium.yearly.comeback"

  func testAServerSignedOfferIsAppliedAndABadSignatureRefused() async throws {
    let directory = try TemporaryDirectory(label: "storekit-signed-offer")
    defer { directory.remove() }
    session = try SKTestSession(contentsOf: Self.catalogURL, dataDirectory: directory.url)
    session.disableDialogs = true
    // Promotional offers are for customers who subscribed before.
    try await session.buyProduct(identifier: IDs.yearly)
    try session.expireSubscription(productIdentifier: IDs.yearly)

    let key = try PromotionalOfferKey.open(in: directory.url.appendingPathComponent("ca", isDirectory: true))
    let first = await Transaction.latest(for: IDs.yearly)
    let bundleID = try XCTUnwrap(first).unsafePayloadValue.appBundleID
    let nonce = UUID()
    let timestamp = Int64((session.date.timeIntervalSince1970 * 1000).rounded(.down))
    let message = PaymentDiscount.message(
      bundleID: bundleID, keyIdentifier: key.keyIdentifier, productID: .init(IDs.yearly), offerID: comeback,
      applicationUsername: nil, nonce: nonce, timestamp: timestamp)
    let signature = try key.signature(of: message)

    let payment = SKMutablePayment(product: try loadProduct(IDs.yearly))
    payment.paymentDiscount = SKPaymentDiscount(
      identifier: comeback, keyIdentifier: key.keyIdentifier, nonce: nonce, signature: signature,
      timestamp: NSNumber(value: timestamp))
    observer.finishes = true
    SKPaymentQueue.default().add(payment)
    drainMainQueue()
    XCTAssertEqual(observer.transactions.last?.transactionState, .purchased)
    let latest = await Transaction.latest(for: IDs.yearly)
    XCTAssertEqual(latest?.unsafePayloadValue.offer?.id, comeback)
    XCTAssertEqual(latest?.unsafePayloadValue.offer?.type, .promotional)

    let forged = SKMutablePayment(product: try loadProduct(IDs.yearly))
    forged.paymentDiscount = SKPaymentDiscount(
      identifier: comeback, keyIdentifier: key.keyIdentifier, nonce: UUID(), signature: signature,
      timestamp: NSNumber(value: timestamp))
    SKPaymentQueue.default().add(forged)
    drainMainQueue()
    let refused = try XCTUnwrap(observer.transactions.last)
    XCTAssertEqual(refused.transactionState, .failed)
    XCTAssertEqual((refused.error as? SKError)?.code, .invalidSignature, "the signature covers another nonce")
  }
}
