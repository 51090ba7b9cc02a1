import Foundation

/// Signs promotional offers as a developer's server does (``PaymentDiscount``), with a key the
/// storefront issued; used by front ends that make signed payments (`buy … offer=… signed`).
public protocol PromotionalOfferSigner: Sendable {
  /// The key's id, as App Store Connect shows it; goes into ``PaymentDiscount/keyIdentifier``.
  var keyIdentifier: String { get }
  /// Base64 of the DER ECDSA P-256 / SHA-256 signature of `message`.
  func signature(of message: Data) throws -> String
}

extension PromotionalOfferSigner {
  /// A discount for `payment`'s offer, signed at `date` with `nonce`.
  public func discount(for payment: Payment, bundleID: String, nonce: UUID, at date: Date) throws -> PaymentDiscount {
    let offerID = payment.offerID ?? ""
    let timestamp = SignedPayloads.milliseconds(date)
    let message = PaymentDiscount.message(
      bundleID: bundleID, keyIdentifier: keyIdentifier, productID: payment.productID, offerID: offerID,
      applicationUsername: payment.applicationUsername, nonce: nonce, timestamp: timestamp)
    return PaymentDiscount(
      identifier: offerID, keyIdentifier: keyIdentifier, nonce: nonce, signature: try signature(of: message),
      timestamp: timestamp)
  }
}

extension PromotionalOfferSigner {
  /// A request signed as the developer's server signs one with Apple's library
  /// (`PromotionalOfferV2SignatureCreator`, `IntroductoryOfferEligibilitySignatureCreator`): a
  /// compact JWS's `header.payload` with the claims they write, signed with this key at `date`.
  /// `valid: false` signs other bytes (a forged request).
  public func signedRequest(
    _ audience: SignedRequest.Audience, bundleID: String, productID: Product.ID, offerID: String? = nil, allow: Bool? = nil,
    transactionID: String?, nonce: UUID, at date: Date, valid: Bool = true
  ) throws -> SignedRequest {
    let issued = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    var claims: [String: Any] = [
      "aud": audience.rawValue, "bid": bundleID, "iss": "storefront", "iat": Int(issued.timeIntervalSince1970),
      "nonce": nonce.uuidString.lowercased(), "productId": productID.rawValue,
    ]
    if let offerID { claims["offerIdentifier"] = offerID }
    if let allow { claims["allowIntroductoryOffer"] = allow }
    if let transactionID { claims["transactionId"] = transactionID }
    let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": keyIdentifier, "typ": "JWT"], options: [.sortedKeys])
    let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
    let input = Data((header.base64URLEncoded + "." + payload.base64URLEncoded).utf8)
    return SignedRequest(
      keyIdentifier: keyIdentifier, signature: try signature(of: valid ? input : Data("not this request".utf8)), signingInput: input,
      audience: audience.rawValue, bundleID: bundleID, productID: productID.rawValue, offerIdentifier: offerID,
      transactionID: transactionID, allowIntroductoryOffer: allow, issuedAt: issued, nonce: nonce.uuidString.lowercased())
  }
}
