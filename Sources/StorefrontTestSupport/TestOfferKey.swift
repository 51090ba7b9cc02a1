import Foundation
import StoreEngine

/// A stand-in for the storefront's promotional-offer key in tests (the product uses
/// `PromotionalOfferKey`, OpenSSL): a "signature" is the key id and the message's base64, so tests
/// make good and bad ones deterministically.
public struct TestOfferKey: OfferSignatureVerifier, PromotionalOfferSigner {
  public static let keyID = "TESTKEY001"
  public let keyIdentifier = TestOfferKey.keyID

  public init() {}

  public func isValid(signature: String, of message: Data, keyIdentifier: String) -> Bool {
    keyIdentifier == Self.keyID && signature == Self.signature(of: message)
  }

  public func signature(of message: Data) throws -> String { Self.signature(of: message) }

  public static func signature(of message: Data) -> String { keyID + ":" + message.base64EncodedString() }
}
