import Foundation
import StoreEngine

/// A stand-in for the storefront's promotional-offer key in unit tests: a "signature" is the
/// message's base64 prefixed with the key id, so a test can make good and bad ones without OpenSSL.
struct OfferTestKey: OfferSignatureVerifier {
  static let keyID = "TESTKEY001"

  func isValid(signature: String, of message: Data, keyIdentifier: String) -> Bool {
    keyIdentifier == Self.keyID && signature == Self.signature(of: message)
  }

  static func signature(of message: Data) -> String { keyID + ":" + message.base64EncodedString() }
}
