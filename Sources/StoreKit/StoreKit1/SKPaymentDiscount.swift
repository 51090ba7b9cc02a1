import Foundation

/// A signed promotional offer a payment applies (signed by the developer's server).
open class SKPaymentDiscount: NSObject, @unchecked Sendable {
  /// The promotional offer's identifier in the catalog.
  public let identifier: String
  /// The id of the key the signature was made with.
  public let keyIdentifier: String
  /// A one-time UUID, signed with the rest.
  public let nonce: UUID
  /// Base64 of the ECDSA signature.
  public let signature: String
  /// When the signature was made, in milliseconds since 1970.
  public let timestamp: NSNumber

  public init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: NSNumber) {
    self.identifier = identifier
    self.keyIdentifier = keyIdentifier
    self.nonce = nonce
    self.signature = signature
    self.timestamp = timestamp
    super.init()
  }
}
