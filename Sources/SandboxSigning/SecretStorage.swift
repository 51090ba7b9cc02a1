import Foundation

/// Where credentials are kept: the sandbox CA's items (certificates, private keys, the
/// promotional-offer key) in the data directory's `ca/` (``CADirectoryStorage``), or these and the
/// API keys and the verifyReceipt shared secret in a table of a shared database, so that every
/// machine signs with the same chain and trusts the same keys.
///
/// Items are whole files by name (``SandboxCertificateAuthority/FileName``, `api-keys.json`, …); a
/// storage that keeps them away from the machine encrypts the private ones (`keys`) itself.
public protocol SecretStorage: Sendable {
  /// Runs `body` with other clients of the same storage shut out, so two first runs create one CA
  /// and two machines adding API keys at once keep both.
  func withLock<Result>(_ body: () throws -> Result) throws -> Result
  /// The items among `names` that are stored.
  func present(_ names: [String]) throws -> [String]
  /// Item `name`'s contents (the plaintext of a private item); throws when it is not stored.
  func read(_ name: String) throws -> Data
  /// Stores `items` all at once (all or none; replacing those of the same names); `keys` are the
  /// private keys among them.
  func writeAll(_ items: [(String, Data)], keys: Set<String>) throws
  /// How messages name item `name` (a path, or the database and item).
  func describe(_ name: String) -> String
  /// How messages name the storage as a whole.
  var location: String { get }
}

/// The CA in a directory of files (today's `ca/`): keys 0600 in a 0700 directory, an `flock` for the lock.
public struct CADirectoryStorage: SecretStorage {
  public let directory: URL

  /// Uses `directory`, creating it (0700) or tightening it.
  public init(directory: URL) throws {
    try CAFiles.prepareDirectory(directory)
    self.directory = directory
  }

  public func withLock<Result>(_ body: () throws -> Result) throws -> Result {
    try CAFiles.withLock(in: directory, body)
  }

  public func present(_ names: [String]) throws -> [String] {
    names.filter { CAFiles.exists(directory.appendingPathComponent($0)) }
  }

  public func read(_ name: String) throws -> Data {
    let url = directory.appendingPathComponent(name)
    try CAFiles.tightenKeyPermissions(url)
    return try CAFiles.read(url)
  }

  public func writeAll(_ items: [(String, Data)], keys: Set<String>) throws {
    try CAFiles.writeAll(items, in: directory, keyFiles: keys)
  }

  public func describe(_ name: String) -> String { directory.appendingPathComponent(name).path }

  public var location: String { directory.path }
}
