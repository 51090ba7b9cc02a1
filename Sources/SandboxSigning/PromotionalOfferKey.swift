import Foundation
import StoreEngine

/// The promotional-offer key the storefront issues, as App Store Connect issues one per app: a P-256
/// key that the developer's server signs ``PaymentDiscount``s with, and the store checks them with.
///
/// Kept beside the sandbox CA as `promotional-offer-key.pem` (mode 0600), created on first use.
public struct PromotionalOfferKey: PromotionalOfferSigner, OfferSignatureVerifier {
  /// The file inside the CA directory.
  public static let fileName = "promotional-offer-key.pem"
  /// The key's id: one key per storefront data directory, so a fixed, App Store Connect-shaped id.
  public static let defaultKeyIdentifier = "STOREFRONT"

  public let keyIdentifier: String
  private let key: PrivateKey

  public init(key: PrivateKey, keyIdentifier: String = Self.defaultKeyIdentifier) {
    self.key = key
    self.keyIdentifier = keyIdentifier
  }

  /// Loads the key from `directory` (the CA directory), or from `storage` when the CA is kept
  /// elsewhere (a shared database), creating it on first use.
  public static func open(in directory: URL, storage: (any SecretStorage)? = nil) throws -> PromotionalOfferKey {
    let storage = try storage ?? CADirectoryStorage(directory: directory)
    return try storage.withLock {
      if try !storage.present([fileName]).isEmpty {
        let pem = try storage.read(fileName)
        guard let key = try? PrivateKey(pem: pem), key.isP256 else {
          throw SandboxCAError.corrupt(file: storage.describe(fileName), reason: "it is not a P-256 private key in PEM")
        }
        return PromotionalOfferKey(key: key)
      }
      let key = try PrivateKey.generateP256()
      try storage.writeAll([(fileName, try key.pem())], keys: [fileName])
      return PromotionalOfferKey(key: key)
    }
  }

  public func signature(of message: Data) throws -> String {
    let raw = try ES256.sign(message, with: key)
    guard let der = ES256.derSignature(fromRaw: raw) else {
      throw OpenSSLError(operation: "converting an ES256 signature to DER")
    }
    return der.base64EncodedString()
  }

  public func isValid(signature: String, of message: Data, keyIdentifier: String) -> Bool {
    guard keyIdentifier == self.keyIdentifier, let der = Data(base64Encoded: signature),
      let raw = ES256.rawSignature(fromDER: der)
    else { return false }
    return ES256.verify(raw, of: message, with: key.pointer)
  }
}
