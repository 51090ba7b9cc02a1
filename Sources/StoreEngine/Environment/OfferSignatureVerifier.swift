import Foundation

/// Checks promotional-offer signatures (``PaymentDiscount``) against the keys the storefront issued.
///
/// The live implementation (OpenSSL, ES256) lives in `SandboxSigning`, so the engine stays free of C.
public protocol OfferSignatureVerifier: Sendable {
  /// Whether `signature` (base64 of a DER ECDSA signature) signs `message` with the key named
  /// `keyIdentifier`. An unknown key id is not valid.
  func isValid(signature: String, of message: Data, keyIdentifier: String) -> Bool
}
