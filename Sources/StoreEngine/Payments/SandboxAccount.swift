/// A sandbox tester account: a name, an optional password (stored hashed) and its own history.
public struct SandboxAccount: Sendable, Equatable, Codable {
  public var name: String
  /// The password's salted slow hash, or nil when the account has no password.
  public var passwordHash: PasswordHash?
  /// ISO 3166-1 alpha-3 storefront of the account, when it differs from the catalog's.
  public var storefront: String?
  /// The Family Sharing group the account belongs to (named after its organizer), if any.
  public var family: String?

  public init(name: String, passwordHash: PasswordHash? = nil, storefront: String? = nil, family: String? = nil) {
    self.name = name
    self.passwordHash = passwordHash
    self.storefront = storefront
    self.family = family
  }
}

/// A salted, slow password hash (PBKDF2-HMAC-SHA256), encoded for storage.
public struct PasswordHash: Sendable, Equatable, Codable {
  public var algorithm: String
  public var iterations: Int
  /// Base64 salt.
  public var salt: String
  /// Base64 derived key.
  public var hash: String

  public init(algorithm: String, iterations: Int, salt: String, hash: String) {
    self.algorithm = algorithm
    self.iterations = iterations
    self.salt = salt
    self.hash = hash
  }
}

/// Hashes and checks sandbox passwords; the OpenSSL implementation lives outside the engine.
public protocol PasswordHasher: Sendable {
  func hash(password: String) throws -> PasswordHash
  /// Constant-time comparison of `password` against `stored`.
  func verify(password: String, against stored: PasswordHash) -> Bool
}
