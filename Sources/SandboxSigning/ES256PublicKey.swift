import COpenSSL
import Foundation

/// A P-256 public key, for checking ES256 signatures (the bearer tokens of `storefront serve`).
///
/// `@unchecked Sendable`: never mutated after creation; each verification has its own digest context.
public final class ES256PublicKey: @unchecked Sendable {
  let pointer: OpaquePointer

  init(owning pointer: OpaquePointer) { self.pointer = pointer }
  deinit { EVP_PKEY_free(pointer) }

  /// Reads a PEM `PUBLIC KEY` (SubjectPublicKeyInfo); throws unless it is a P-256 key.
  public convenience init(pem: Data) throws {
    OpenSSLError.clearQueue()
    let key = try MemoryBIO.reading(pem) { bio in PEM_read_bio_PUBKEY(bio, nil, nil, nil) }
    guard let key else { throw OpenSSLError.capture("reading a PEM public key") }
    guard PublicKey.isP256(key) else {
      EVP_PKEY_free(key)
      throw OpenSSLError(operation: "reading a PEM public key: not a P-256 key")
    }
    self.init(owning: key)
  }

  /// The key as PEM SubjectPublicKeyInfo.
  public func pem() throws -> Data {
    try MemoryBIO.writing("writing a public key") { bio in PEM_write_bio_PUBKEY(bio, pointer) == 1 }
  }

  /// True when `signature` (JOSE raw `r||s`, 64 bytes) is this key's ES256 signature of `message`.
  public func isValidSignature(_ signature: Data, of message: Data) -> Bool {
    ES256.verify(signature, of: message, with: pointer)
  }
}
