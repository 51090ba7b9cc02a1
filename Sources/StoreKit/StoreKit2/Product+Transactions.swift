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

  /// A promotional offer signed as a compact JWS, as the store checks it: the JWS's ES256
  /// signature over `header.payload` with the key its `kid` names, its `nonce` and its `iat` (or
  /// `timestamp`) time.
  static func discount(offerID: String, compactJWS: String, productID: String) throws -> PaymentDiscount {
    guard let jws = try? CompactJWS(compactJWS), let key = jws.header.kid, jws.signature.count == 64,
      let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
    else { throw PurchaseError.invalidOfferSignature }
    if let offer = jws.payloadString("offerIdentifier"), offer != offerID { throw PurchaseError.invalidOfferIdentifier }
    if let product = jws.payloadString("productId"), product != productID { throw PurchaseError.invalidOfferSignature }
    guard let nonce = jws.payloadString("nonce").flatMap(UUID.init(uuidString:)) else { throw PurchaseError.missingOfferParameters }
    let milliseconds = jws.payloadNumber("iat").map { Int64($0 * 1000) } ?? jws.payloadNumber("timestamp").map { Int64($0) }
    guard let milliseconds else { throw PurchaseError.missingOfferParameters }
    var discount = PaymentDiscount(
      identifier: offerID, keyIdentifier: key, nonce: nonce, signature: signature.derRepresentation.base64EncodedString(),
      timestamp: milliseconds)
    discount.signedMessage = jws.signingInput
    return discount
  }
}

extension Product: CustomDebugStringConvertible {
  /// The catalog's product as JSON, pretty-printed.
  public var debugDescription: String { PrettyJSON.string(jsonRepresentation) }
}
