import Foundation
internal import StoreEngine
internal import StoreScenario

extension Product {
  /// The product's newest transaction (refunded or not), or nil.
  public var latestTransaction: VerificationResult<Transaction>? {
    get async { await Transaction.latest(for: id) }
  }

  /// The transaction that entitles the account to this product now, or nil.
  @available(*, deprecated, message: "Use the currentEntitlements property instead.")
  public var currentEntitlement: VerificationResult<Transaction>? {
    get async {
      StoreKitEnvironment.shared.presentQuery { store, present in
        StoreKit2Queries.currentEntitlements(history: present, subscriptions: store.queue.subscriptions())
          .filter { $0.productID.rawValue == id }
      }.last
    }
  }

  /// The transactions that entitle the account to this product now.
  public var currentEntitlements: Transaction.Transactions { Transaction.currentEntitlements(for: id) }

  /// A promotional offer signed as a compact JWS (Apple's `PromotionalOfferV2SignatureCreator`):
  /// the store checks its ES256 signature with the key its `kid` names, and its claims (``SignedRequest``).
  static func discount(offerID: String, compactJWS: String, productID: String) throws -> PaymentDiscount {
    let request = try signedRequest(compactJWS)
    if let offer = request.offerIdentifier, offer != offerID { throw PurchaseError.invalidOfferIdentifier }
    guard let nonce = request.nonce.flatMap(UUID.init(uuidString:)), let issued = request.issuedAt else {
      throw PurchaseError.missingOfferParameters
    }
    var discount = PaymentDiscount(
      identifier: offerID, keyIdentifier: request.keyIdentifier, nonce: nonce, signature: request.signature,
      timestamp: Int64(issued.timeIntervalSince1970 * 1000))
    discount.signedMessage = request.signingInput
    discount.request = request
    return discount
  }

  /// A request the developer's server signed as a compact JWS, read (not yet checked: the store
  /// checks it at the purchase). An unreadable one is `invalidOfferSignature`.
  static func signedRequest(_ compactJWS: String) throws -> SignedRequest {
    guard let jws = try? CompactJWS(compactJWS), let key = jws.header.kid, jws.signature.count == 64,
      let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
      let claims = (try? JSONSerialization.jsonObject(with: jws.payloadData)) as? [String: Any]
    else { throw PurchaseError.invalidOfferSignature }
    // `iat` in seconds (Apple's creators); an older `timestamp` in milliseconds is read too.
    let issued = (claims["iat"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
      ?? (claims["timestamp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) }
    let allow = claims["allowIntroductoryOffer"] as? Bool
    return SignedRequest(
      keyIdentifier: key, signature: signature.derRepresentation.base64EncodedString(), signingInput: jws.signingInput,
      audience: claims["aud"] as? String, bundleID: claims["bid"] as? String, productID: claims["productId"] as? String,
      offerIdentifier: claims["offerIdentifier"] as? String, transactionID: claims["transactionId"] as? String,
      allowIntroductoryOffer: allow, issuedAt: issued, nonce: claims["nonce"] as? String)
  }
}

extension Product: CustomDebugStringConvertible {
  /// The catalog's product as JSON, pretty-printed.
  public var debugDescription: String { PrettyJSON.string(jsonRepresentation) }
}
