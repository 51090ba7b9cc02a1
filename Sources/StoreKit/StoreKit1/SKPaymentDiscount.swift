import Foundation

/// A signed promotional offer a payment applies (signed by the developer's server).
open class SKPaymentDiscount: NSObject, @unchecked Sendable {
  // Set once, by the initializer.
  private var storedIdentifier = ""
  private var storedKeyIdentifier = ""
  private var storedNonce = UUID()
  private var storedSignature = ""
  private var storedTimestamp = NSNumber(value: 0)

  /// An empty discount (Apple's inherited `NSObject` initializer), for a subclass to fill.
  public override init() {
    super.init()
  }

  public init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: NSNumber) {
    storedIdentifier = identifier
    storedKeyIdentifier = keyIdentifier
    storedNonce = nonce
    storedSignature = signature
    storedTimestamp = timestamp
    super.init()
  }

  /// The promotional offer's identifier in the catalog.
  open var identifier: String { storedIdentifier }
  /// The id of the key the signature was made with.
  open var keyIdentifier: String { storedKeyIdentifier }
  /// A one-time UUID, signed with the rest.
  open var nonce: UUID { storedNonce }
  /// Base64 of the ECDSA signature.
  open var signature: String { storedSignature }
  /// When the signature was made, in milliseconds since 1970.
  open var timestamp: NSNumber { storedTimestamp }
}
