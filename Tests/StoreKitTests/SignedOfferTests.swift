import Foundation
import StoreKit
import StoreKitTest
import StorefrontProcessTestSupport
import XCTest

/// A developer's server signs offers with Apple's App Store Server Library
/// (`PromotionalOfferV2SignatureCreator`, `IntroductoryOfferEligibilitySignatureCreator`) and the
/// storefront's in-app purchase key; the app buys with them through `purchase(options:)`, and the
/// store checks them as Apple's does.
final class SignedOfferTests: StoreKitTestCase {
  func testOffersSignedWithApplesLibraryAreCheckedAndApplied() async throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(label: "storekit-signed-offers")
    defer { directory.remove() }
    session = try SKTestSession(contentsOf: Self.catalogURL, dataDirectory: directory.url)
    session.disableDialogs = true
    // The key `storefront keys` would hand the developer's server: the data directory's in-app purchase key.
    let keyPEM = try String(contentsOf: directory.url.appendingPathComponent("ca/promotional-offer-key.pem"), encoding: .utf8)
    let app = try await AppTransaction.shared.payloadValue
    let products = try await Product.products(for: [IDs.yearly])
    let yearly = try XCTUnwrap(products.first)
    let offerID = try XCTUnwrap(yearly.subscription?.promotionalOffers.first?.id)
    func sign(_ requests: [AppleVerifier.OfferRequest], bundleID: String? = nil) throws -> [String] {
      try apple.sign(requests, keyPEM: keyPEM, keyID: "STOREFRONT", bundleID: bundleID ?? app.bundleID)
    }

    // A new customer whose server withholds the free trial pays the list price.
    let withhold = try sign([.introductoryOfferEligibility(product: IDs.yearly, allow: false, transactionID: app.appTransactionID)])
    guard case .success(.verified(let first)) = try await yearly.purchase(options: [.introductoryOfferEligibility(compactJWS: withhold[0])])
    else { return XCTFail("the purchase with a withheld trial did not succeed") }
    XCTAssertNil(first.offer, "no introductory offer")
    XCTAssertEqual(first.price, yearly.price)
    await first.finish()
    try session.expireSubscription(productIdentifier: IDs.yearly)

    // A lapsed subscriber gets the promotional offer the server signed for them.
    let signed = try sign([.promotionalOffer(product: IDs.yearly, offer: offerID, transactionID: String(first.id))])
    // One signature character changed mid-segment (the last one's low bits are padding: changing it may change nothing).
    var characters = Array(signed[0])
    let middle = characters.count - 20
    characters[middle] = characters[middle] == "A" ? "B" : "A"
    let tampered = String(characters)
    let otherApp = try sign([.promotionalOffer(product: IDs.yearly, offer: offerID, transactionID: nil)], bundleID: "com.example.other")
    for (name, jws) in [("a tampered signature", tampered), ("another app's", otherApp[0])] {
      do {
        _ = try await yearly.purchase(options: Set(Product.PurchaseOption.promotionalOffer(offerID, compactJWS: jws)))
        XCTFail("\(name) offer was accepted")
      } catch Product.PurchaseError.invalidOfferSignature {
      }
    }
    guard case .success(.verified(let second)) = try await yearly.purchase(
      options: Set(Product.PurchaseOption.promotionalOffer(offerID, compactJWS: signed[0])))
    else { return XCTFail("the purchase with a signed promotional offer did not succeed") }
    XCTAssertEqual(second.offer?.type, .promotional)
    XCTAssertEqual(second.offer?.id, offerID)
    XCTAssertLessThan(second.price ?? 0, yearly.price, "the offer's price, not the list price")
  }
}
