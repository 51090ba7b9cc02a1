import Foundation

extension RetentionOffer {
  /// The payment that accepts the offer on the cancel sheet: the product with the offer and its
  /// signature, which the store checks at the purchase as any signed offer (§42), so a forged one fails
  /// with Apple's error and changes nothing. Nil for a V2 JWS that lacks what a purchase needs (a `kid`,
  /// `nonce`, `iat` and a 64-byte ES256 signature).
  public func payment(for product: Product.ID) -> Payment? {
    var payment = Payment(productID: product)
    payment.offerID = offerIdentifier
    switch self {
    case .signatureV1(let discount, _):
      payment.discount = discount
    case .signatureV2(let offerID, let compactJWS):
      guard let request = Self.signedRequest(compactJWS), let nonce = request.nonce.flatMap(UUID.init(uuidString:)),
        let issued = request.issuedAt
      else { return nil }
      var discount = PaymentDiscount(
        identifier: offerID, keyIdentifier: request.keyIdentifier, nonce: nonce, signature: request.signature,
        timestamp: Int64((issued.timeIntervalSince1970 * 1000).rounded(.down)))
      discount.signedMessage = request.signingInput
      discount.request = request
      payment.discount = discount
    }
    return payment
  }

  /// A compact JWS the developer's server signed, read (not checked: the store checks it at the
  /// purchase), as the StoreKit library reads `promotionalOffer(_:compactJWS:)`.
  static func signedRequest(_ text: String) -> SignedRequest? {
    guard let jws = try? CompactJWS(text), let key = jws.header.kid, let signature = derSignature(raw: jws.signature),
      let claims = (try? JSONSerialization.jsonObject(with: jws.payloadData)) as? [String: Any]
    else { return nil }
    let issued = (claims["iat"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
    return SignedRequest(
      keyIdentifier: key, signature: signature.base64EncodedString(), signingInput: jws.signingInput,
      audience: claims["aud"] as? String, bundleID: claims["bid"] as? String, productID: claims["productId"] as? String,
      offerIdentifier: claims["offerIdentifier"] as? String, transactionID: claims["transactionId"] as? String,
      issuedAt: issued, nonce: claims["nonce"] as? String)
  }

  /// An ES256 JWS signature (`r || s`, 32 bytes each) as the DER `SEQUENCE { INTEGER r, INTEGER s }`
  /// the offer verifier reads.
  static func derSignature(raw: Data) -> Data? {
    guard raw.count == 64 else { return nil }
    func integer(_ bytes: Data) -> [UInt8] {
      var value = Array(bytes.drop { $0 == 0 })
      if value.isEmpty { value = [0] }
      if let first = value.first, first & 0x80 != 0 { value.insert(0, at: 0) }
      return [0x02, UInt8(value.count)] + value
    }
    let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
    return Data([0x30, UInt8(body.count)] + body)
  }
}
