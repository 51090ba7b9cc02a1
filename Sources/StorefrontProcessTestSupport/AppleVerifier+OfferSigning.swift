import Foundation

extension AppleVerifier {
  /// A request for Apple's signature creators (`sign_offers_with_apple.py`).
  public struct OfferRequest: Encodable, Sendable {
    var kind: String
    var product_id: String
    var offer_id: String?
    var allow: Bool?
    var transaction_id: String?

    /// `PromotionalOfferV2SignatureCreator.create_signature(product_id, offer_identifier, transaction_id)`.
    public static func promotionalOffer(product: String, offer: String, transactionID: String?) -> OfferRequest {
      OfferRequest(kind: "promotional-offer", product_id: product, offer_id: offer, allow: nil, transaction_id: transactionID)
    }

    /// `IntroductoryOfferEligibilitySignatureCreator.create_signature(product_id, allow_introductory_offer, transaction_id)`.
    public static func introductoryOfferEligibility(product: String, allow: Bool, transactionID: String) -> OfferRequest {
      OfferRequest(kind: "introductory-offer-eligibility", product_id: product, offer_id: nil, allow: allow, transaction_id: transactionID)
    }
  }

  /// The driver script for signing.
  public static let signingScript = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/sign_offers_with_apple.py")

  /// Signs `requests` as a developer's server does with Apple's library, with the in-app purchase
  /// key `keyPEM` named `keyID`, for `bundleID`; the compact JWS of each, in order.
  ///
  /// - Throws: ``Failure`` when the script fails or prints something else.
  public func sign(_ requests: [OfferRequest], keyPEM: String, keyID: String, bundleID: String, issuerID: String = "storefront-issuer") throws -> [String] {
    struct Document: Encodable {
      var key_pem: String
      var key_id: String
      var issuer_id: String
      var bundle_id: String
      var requests: [OfferRequest]
    }
    let input = try JSONEncoder().encode(
      Document(key_pem: keyPEM, key_id: keyID, issuer_id: issuerID, bundle_id: bundleID, requests: requests))
    let result = try ChildProcess.run(python.path, [Self.signingScript.path], stdin: input, timeout: 300)
    guard result.status == 0, !result.signalled else {
      throw Failure(description: "sign_offers_with_apple.py: \(result.summary)")
    }
    return try JSONDecoder().decode([String].self, from: result.stdoutData)
  }
}
