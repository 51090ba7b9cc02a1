import Foundation
import SandboxSigning
import StoreEngine
import XCTest

/// B51: the storefront issues a promotional-offer key, and payments' `SKPaymentDiscount`s signed
/// with it check out, while tampered or foreign ones do not.
final class PromotionalOfferKeyTests: XCTestCase {
  func message(username: String? = "6F9619FF-8B86-D011-B42D-00C04FC964FF") -> Data {
    PaymentDiscount.message(
      bundleID: "com.example.storefront", keyIdentifier: PromotionalOfferKey.defaultKeyIdentifier,
      productID: "com.example.pro.monthly", offerID: "pro.promo.half", applicationUsername: username,
      nonce: UUID(uuidString: "A1B2C3D4-0000-4000-8000-000000000001") ?? UUID(), timestamp: 1_767_225_600_000)
  }

  func testB51MessageIsApplesFormat() {
    let text = String(decoding: message(), as: UTF8.self)
    XCTAssertEqual(
      text.components(separatedBy: "\u{2063}"),
      ["com.example.storefront", "STOREFRONT", "com.example.pro.monthly", "pro.promo.half",
       "6f9619ff-8b86-d011-b42d-00c04fc964ff", "a1b2c3d4-0000-4000-8000-000000000001", "1767225600000"])
  }

  func testB51SignedDiscountVerifiesAndTamperedOnesDoNot() throws {
    let directory = try SigningFixtures.temporaryDirectory("promo")
    let key = try PromotionalOfferKey.open(in: directory)
    let signature = try key.signature(of: message())
    XCTAssertNotNil(Data(base64Encoded: signature), "base64 of DER, as Apple's library makes it")
    XCTAssertTrue(key.isValid(signature: signature, of: message(), keyIdentifier: key.keyIdentifier))
    XCTAssertFalse(key.isValid(signature: signature, of: message(username: nil), keyIdentifier: key.keyIdentifier))
    XCTAssertFalse(key.isValid(signature: signature, of: message(), keyIdentifier: "OTHERKEY01"))
    XCTAssertFalse(key.isValid(signature: "not base64", of: message(), keyIdentifier: key.keyIdentifier))
    // The key is kept: reopening the directory checks signatures made before.
    let reopened = try PromotionalOfferKey.open(in: directory)
    XCTAssertTrue(reopened.isValid(signature: signature, of: message(), keyIdentifier: key.keyIdentifier))
    XCTAssertEqual(try SigningFixtures.mode(directory.appendingPathComponent(PromotionalOfferKey.fileName)), 0o600)
    // Another storefront's key does not verify this one's signatures.
    let other = try PromotionalOfferKey.open(in: try SigningFixtures.temporaryDirectory("promo-other"))
    XCTAssertFalse(other.isValid(signature: signature, of: message(), keyIdentifier: key.keyIdentifier))
  }
}
