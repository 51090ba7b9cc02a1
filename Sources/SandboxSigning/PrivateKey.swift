import COpenSSL
import Foundation

/// An EC private key held by OpenSSL (`EVP_PKEY`).
///
/// `@unchecked Sendable`: the key is never mutated after creation, and OpenSSL allows concurrent
/// signing with one `EVP_PKEY` as long as each operation has its own `EVP_MD_CTX`.
public final class PrivateKey: @unchecked Sendable {
  let pointer: OpaquePointer

  init(owning pointer: OpaquePointer) { self.pointer = pointer }
  deinit { EVP_PKEY_free(pointer) }

  /// Generates a fresh P-256 (prime256v1) key from OpenSSL's random generator.
  public static func generateP256() throws -> PrivateKey {
    OpenSSLError.clearQueue()
    guard let key = sf_EVP_EC_gen("P-256") else { throw OpenSSLError.capture("generating a P-256 key") }
    return PrivateKey(owning: key)
  }

  /// Reads a PEM private key (PKCS#8 or traditional EC form).
  public convenience init(pem: Data) throws {
    OpenSSLError.clearQueue()
    let key = try MemoryBIO.reading(pem) { bio in PEM_read_bio_PrivateKey(bio, nil, nil, nil) }
    guard let key else { throw OpenSSLError.capture("reading a PEM private key") }
    self.init(owning: key)
  }

  /// The key as unencrypted PKCS#8 PEM; store it with mode 0600.
  public func pem() throws -> Data {
    try MemoryBIO.writing("writing a private key") { bio in
      PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil) == 1
    }
  }

  /// True for an EC key on P-256, the only curve ES256 allows.
  public var isP256: Bool { PublicKey.isP256(pointer) }
}

/// Helpers for public keys borrowed from certificates.
enum PublicKey {
  static func isP256(_ key: OpaquePointer) -> Bool {
    guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
    var name = [CChar](repeating: 0, count: 64)
    var length = 0
    guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return false }
    let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return group == "prime256v1" || group == "P-256"
  }
}
