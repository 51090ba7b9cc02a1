import Foundation

/// A request the developer's server signed for the app as a compact JWS with its in-app purchase
/// key (Apple's "Generating JWS to sign App Store requests"): a promotional offer
/// (`promotionalOffer(_:compactJWS:)`) or introductory-offer eligibility
/// (`introductoryOfferEligibility(compactJWS:)`). The store checks the signature with the key the
/// header's `kid` names, then the claims: the audience, the app's bundle id, the product, the
/// customer's transaction and when it was signed.
public struct SignedRequest: Sendable, Equatable, Codable {
  /// The JWS `aud` of each kind of request, as Apple's `JWSSignatureCreator`s write it.
  public enum Audience: String, Sendable, Codable {
    case promotionalOffer = "promotional-offer"
    case introductoryOfferEligibility = "introductory-offer-eligibility"
  }

  /// The header's `kid`: the in-app purchase key that signed it.
  public var keyIdentifier: String
  /// Base64 of the DER ECDSA P-256 / SHA-256 signature.
  public var signature: String
  /// The bytes the signature covers (`header.payload`, ASCII).
  public var signingInput: Data
  /// `aud`.
  public var audience: String?
  /// `bid`.
  public var bundleID: String?
  /// `productId`.
  public var productID: String?
  /// `offerIdentifier` (a promotional offer's).
  public var offerIdentifier: String?
  /// `transactionId`: any transaction of the customer, or the customer's app transaction id.
  public var transactionID: String?
  /// `allowIntroductoryOffer` (an eligibility request's).
  public var allowIntroductoryOffer: Bool?
  /// `iat`.
  public var issuedAt: Date?
  /// `nonce`.
  public var nonce: String?

  public init(
    keyIdentifier: String, signature: String, signingInput: Data, audience: String?, bundleID: String?, productID: String?,
    offerIdentifier: String? = nil, transactionID: String? = nil, allowIntroductoryOffer: Bool? = nil, issuedAt: Date?,
    nonce: String?
  ) {
    self.keyIdentifier = keyIdentifier
    self.signature = signature
    self.signingInput = signingInput
    self.audience = audience
    self.bundleID = bundleID
    self.productID = productID
    self.offerIdentifier = offerIdentifier
    self.transactionID = transactionID
    self.allowIntroductoryOffer = allowIntroductoryOffer
    self.issuedAt = issuedAt
    self.nonce = nonce
  }

  /// How long a signed request stays valid after `iat`, as a promotional offer's signature does
  /// (Apple: 24 hours).
  public static let lifetime: TimeInterval = 86_400
}
