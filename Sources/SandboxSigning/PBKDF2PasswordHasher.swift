import COpenSSL
import Foundation
import StoreEngine

/// Hashes sandbox passwords with PBKDF2-HMAC-SHA256 (OpenSSL's `PKCS5_PBKDF2_HMAC`).
///
/// 600,000 iterations by default, OWASP's 2023 figure for PBKDF2-HMAC-SHA256; a 16-byte random
/// salt and a 32-byte key. Checking re-derives with the stored salt and iteration count and compares
/// in constant time, so hashes made with other counts keep working.
public struct PBKDF2PasswordHasher: PasswordHasher {
  /// The `algorithm` written into ``PasswordHash``.
  public static let algorithm = "PBKDF2-HMAC-SHA256"
  public static let defaultIterations = 600_000

  public let iterations: Int
  private let randomBytes: @Sendable (Int) throws -> [UInt8]

  /// - Parameters:
  ///   - iterations: work factor for new hashes (tests may use fewer to stay fast).
  ///   - randomBytes: the salt source; OpenSSL's `RAND_bytes` unless a test injects one.
  public init(
    iterations: Int = PBKDF2PasswordHasher.defaultIterations,
    randomBytes: @escaping @Sendable (Int) throws -> [UInt8] = PBKDF2PasswordHasher.secureRandomBytes
  ) {
    self.iterations = max(1, iterations)
    self.randomBytes = randomBytes
  }

  public func hash(password: String) throws -> PasswordHash {
    let salt = try randomBytes(16)
    let key = try Self.derive(password: password, salt: salt, iterations: iterations, length: 32)
    return PasswordHash(
      algorithm: Self.algorithm, iterations: iterations, salt: Data(salt).base64EncodedString(),
      hash: Data(key).base64EncodedString())
  }

  public func verify(password: String, against stored: PasswordHash) -> Bool {
    guard stored.algorithm == Self.algorithm, stored.iterations > 0,
      let salt = Data(base64Encoded: stored.salt), let expected = Data(base64Encoded: stored.hash),
      !expected.isEmpty,
      let derived = try? Self.derive(
        password: password, salt: [UInt8](salt), iterations: stored.iterations, length: expected.count)
    else { return false }
    return [UInt8](expected).withUnsafeBytes { lhs in
      derived.withUnsafeBytes { rhs in CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, lhs.count) == 0 }
    }
  }

  /// `count` bytes from OpenSSL's CSPRNG.
  @Sendable public static func secureRandomBytes(_ count: Int) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw OpenSSLError.capture("generating a random salt") }
    return bytes
  }

  private static func derive(password: String, salt: [UInt8], iterations: Int, length: Int) throws -> [UInt8] {
    guard let rounds = Int32(exactly: iterations) else {
      throw OpenSSLError(operation: "deriving a password hash: \(iterations) iterations is too many")
    }
    let secret = Array(password.utf8)
    var key = [UInt8](repeating: 0, count: length)
    let ok = secret.withUnsafeBufferPointer { secretBytes in
      secretBytes.withMemoryRebound(to: CChar.self) { chars in
        PKCS5_PBKDF2_HMAC(
          chars.baseAddress, Int32(chars.count), salt, Int32(salt.count), rounds, EVP_sha256(), Int32(length), &key)
      }
    }
    guard ok == 1 else { throw OpenSSLError.capture("deriving a password hash") }
    return key
  }
}
