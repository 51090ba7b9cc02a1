import Foundation

/// A signed promotional offer on a payment (`SKPaymentDiscount`): the developer's server signs the
/// offer with the key App Store Connect issued, and the store checks the signature before charging.
public struct PaymentDiscount: Sendable, Equatable, Codable {
  /// The promotional offer's id (`offerID` in the catalog).
  public var identifier: String
  /// The id of the key that made the signature.
  public var keyIdentifier: String
  /// A one-time UUID.
  public var nonce: UUID
  /// Base64 of the DER ECDSA P-256 / SHA-256 signature of ``message(bundleID:productID:applicationUsername:)``.
  public var signature: String
  /// When the server signed it, in milliseconds since 1970; the offer is valid for 24 hours.
  public var timestamp: Int64
  /// The bytes the signature covers when the server signed the offer as a compact JWS (StoreKit 2's
  /// `promotionalOffer(_:compactJWS:)`: `header.payload`); nil for the classic signature, which
  /// covers ``message(bundleID:productID:applicationUsername:)``.
  public var signedMessage: Data?
  /// The whole compact JWS the offer came as, whose claims the store checks too; nil for the
  /// classic signature.
  public var request: SignedRequest?

  public init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: Int64) {
    self.identifier = identifier
    self.keyIdentifier = keyIdentifier
    self.nonce = nonce
    self.signature = signature
    self.timestamp = timestamp
  }

  /// The bytes Apple's format signs: bundle id, key id, product id, offer id, application username
  /// and nonce (both lower-case) and timestamp, joined by U+2063 (invisible separator).
  public func message(bundleID: String, productID: Product.ID, applicationUsername: String?) -> Data {
    Self.message(
      bundleID: bundleID, keyIdentifier: keyIdentifier, productID: productID, offerID: identifier,
      applicationUsername: applicationUsername, nonce: nonce, timestamp: timestamp)
  }

  /// The signed bytes for the given parts, for a signer that has no discount yet.
  public static func message(
    bundleID: String, keyIdentifier: String, productID: Product.ID, offerID: String, applicationUsername: String?,
    nonce: UUID, timestamp: Int64
  ) -> Data {
    let parts = [
      bundleID, keyIdentifier, productID.rawValue, offerID, (applicationUsername ?? "").lowercased(),
      nonce.uuidString.lowercased(), String(timestamp),
    ]
    return Data(parts.joined(separator: "\u{2063}").utf8)
  }
}
