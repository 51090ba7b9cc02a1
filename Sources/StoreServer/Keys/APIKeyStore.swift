import Foundation
import SandboxSigning

/// The API keys of a data directory: public halves and revocations in `api-keys.json` (0600), the
/// private keys `keys create` makes in `keys/AuthKey_<KEYID>.p8` (0600), as App Store Connect hands them out.
///
/// On a shared ledger the registry and the private keys `keys create` makes live in the team's
/// ``SecretStorage`` instead (the keys sealed), so a key made on one machine is trusted by a
/// `serve` on any other; the `.p8` is still written to this data directory for the backend.
public struct APIKeyStore: Sendable {
  public static let registryFileName = "api-keys.json"
  public static let keysFolderName = "keys"

  /// The data directory.
  public let directory: URL
  /// The shared storage, or nil for the data directory's files.
  public let storage: (any SecretStorage)?

  public init(directory: URL, storage: (any SecretStorage)? = nil) {
    self.directory = directory
    self.storage = storage
  }

  /// Where the registry is, as messages name it (a path, or the database and item).
  public var registryLocation: String { storage?.describe(Self.registryFileName) ?? registryURL.path }

  /// The name of key `keyID`'s private key file (and shared item).
  public static func privateKeyFileName(_ keyID: String) -> String { "AuthKey_\(keyID).p8" }

  public var registryURL: URL { directory.appendingPathComponent(Self.registryFileName) }
  public var keysDirectory: URL { directory.appendingPathComponent(Self.keysFolderName, isDirectory: true) }

  /// The registry, or nil while no key was ever made or imported here.
  public func load() throws(APIKeyStoreError) -> APIKeyRegistry? {
    guard let data = try registryData() else { return nil }
    return try Self.decode(data, location: registryLocation)
  }

  /// The registry's bytes as stored, or nil while there is none (what ``APIKeyRing`` compares).
  public func registryData() throws(APIKeyStoreError) -> Data? {
    if let storage {
      do {
        guard try !storage.present([Self.registryFileName]).isEmpty else { return nil }
        return try storage.read(Self.registryFileName)
      } catch {
        throw .unreadable(path: registryLocation, reason: String(describing: error))
      }
    }
    guard FileManager.default.fileExists(atPath: registryURL.path) else { return nil }
    do {
      return try Data(contentsOf: registryURL)
    } catch {
      throw .unreadable(path: registryURL.path, reason: String(describing: error))
    }
  }

  static func decode(_ data: Data, location: String) throws(APIKeyStoreError) -> APIKeyRegistry {
    do {
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      return try decoder.decode(APIKeyRegistry.self, from: data)
    } catch {
      throw .unreadable(path: location, reason: String(describing: error))
    }
  }

  /// Runs `body` (a read-modify-write of the registry) with other writers shut out on a shared
  /// storage, so two machines adding keys at once keep both.
  private func exclusively<Value>(_ body: () throws(APIKeyStoreError) -> Value) throws(APIKeyStoreError) -> Value {
    guard let storage else { return try body() }
    let outcome: Result<Value, APIKeyStoreError>
    do {
      outcome = try storage.withLock { () -> Result<Value, APIKeyStoreError> in
        do throws(APIKeyStoreError) {
          return .success(try body())
        } catch {
          return .failure(error)
        }
      }
    } catch {
      throw .unwritable(path: registryLocation, reason: String(describing: error))
    }
    return try outcome.get()
  }

  /// Makes a P-256 key, writes its `.p8` and registers its public half under this directory's issuer.
  public func create(name: String?, now: Date, generator: inout some RandomNumberGenerator) throws(APIKeyStoreError) -> CreatedAPIKey {
    try exclusively { () throws(APIKeyStoreError) in try createUnlocked(name: name, now: now, generator: &generator) }
  }

  private func createUnlocked(name: String?, now: Date, generator: inout some RandomNumberGenerator) throws(APIKeyStoreError) -> CreatedAPIKey {
    var registry = try load() ?? APIKeyRegistry(issuerID: Self.makeIssuerID(&generator))
    var keyID = Self.makeKeyID(&generator)
    while registry.key(keyID) != nil { keyID = Self.makeKeyID(&generator) }
    let file = keysDirectory.appendingPathComponent(Self.privateKeyFileName(keyID))
    let privatePEM: Data
    let publicPEM: Data
    do {
      let key = try PrivateKey.generateP256()
      privatePEM = try key.pem()
      publicPEM = try key.publicKey().pem()
    } catch {
      throw .unwritable(path: file.path, reason: "OpenSSL could not make a key: \(error)")
    }
    try PrivateFile.makeDirectory(keysDirectory)
    try PrivateFile.write(privatePEM, to: file)
    let key = APIKey(
      keyID: keyID, name: name ?? "Storefront key \(keyID)", issuerID: registry.issuerID,
      publicKeyPEM: String(decoding: publicPEM, as: UTF8.self), created: now)
    registry.keys.append(key)
    try save(registry, privateKey: (Self.privateKeyFileName(keyID), privatePEM))
    return CreatedAPIKey(key: key, privateKeyFile: file)
  }

  /// Registers the public half of an existing `.p8` (a developer's App Store Connect key) under its own ids.
  public func importKey(
    from file: URL, keyID: String, issuerID: String, name: String?, now: Date, generator: inout some RandomNumberGenerator
  ) throws(APIKeyStoreError) -> APIKey {
    try exclusively { () throws(APIKeyStoreError) in
      try importUnlocked(from: file, keyID: keyID, issuerID: issuerID, name: name, now: now, generator: &generator)
    }
  }

  private func importUnlocked(
    from file: URL, keyID: String, issuerID: String, name: String?, now: Date, generator: inout some RandomNumberGenerator
  ) throws(APIKeyStoreError) -> APIKey {
    guard Self.isKeyID(keyID) else { throw .invalidKeyID(keyID) }
    guard UUID(uuidString: issuerID) != nil else { throw .invalidIssuerID(issuerID) }
    let pem: Data
    do { pem = try Data(contentsOf: file) } catch {
      // Foundation's sentence ends in its own period and names no remedy; say what it is.
      let reason = FileManager.default.fileExists(atPath: file.path) ? "it is not readable" : "there is no such file"
      throw .unreadable(path: file.path, reason: reason + "; give the path of the .p8 App Store Connect let you download")
    }
    let publicPEM: Data
    do {
      let key = try PrivateKey(pem: pem)
      guard key.isP256 else { throw APIKeyStoreError.notAP256Key(path: file.path) }
      publicPEM = try key.publicKey().pem()
    } catch {
      throw .notAP256Key(path: file.path)
    }
    var registry = try load() ?? APIKeyRegistry(issuerID: Self.makeIssuerID(&generator))
    guard registry.key(keyID) == nil else { throw .duplicateKey(keyID) }
    let key = APIKey(
      keyID: keyID, name: name ?? file.lastPathComponent, issuerID: issuerID,
      publicKeyPEM: String(decoding: publicPEM, as: UTF8.self), created: now)
    registry.keys.append(key)
    try save(registry)
    return key
  }

  /// Marks `keyID` revoked; a running server refuses its tokens from the next request on.
  public func revoke(_ keyID: String, now: Date) throws(APIKeyStoreError) -> APIKey {
    try exclusively { () throws(APIKeyStoreError) in
      guard var registry = try load(), let index = registry.keys.firstIndex(where: { $0.keyID == keyID }) else {
        throw .unknownKey(keyID)
      }
      if registry.keys[index].revoked == nil { registry.keys[index].revoked = now }
      try save(registry)
      return registry.keys[index]
    }
  }

  /// The private key of `keyID` that `keys create` made: this data directory's `.p8`, else (on a
  /// shared storage) the team's copy, so a backend on another machine can sign with it.
  public func privateKey(_ keyID: String) throws(APIKeyStoreError) -> Data {
    let name = Self.privateKeyFileName(keyID)
    let file = keysDirectory.appendingPathComponent(name)
    if let data = FileManager.default.contents(atPath: file.path) { return data }
    guard let storage else {
      throw .unreadable(path: file.path, reason: "there is no such file; only keys made with `keys create` on this data directory have one")
    }
    do {
      guard try !storage.present([name]).isEmpty else {
        throw APIKeyStoreError.unreadable(
          path: storage.describe(name), reason: "it is not stored; only keys made with `keys create` have one (an imported key's .p8 stays with you)")
      }
      return try storage.read(name)
    } catch let error as APIKeyStoreError {
      throw error
    } catch {
      throw .unreadable(path: storage.describe(name), reason: String(describing: error))
    }
  }

  /// Writes key `keyID`'s private key (``privateKey(_:)``) to `file` (0600), by default this data
  /// directory's `keys/AuthKey_<KEYID>.p8`, and returns where it is.
  public func exportPrivateKey(_ keyID: String, to file: URL? = nil) throws(APIKeyStoreError) -> URL {
    let pem = try privateKey(keyID)
    let target = file ?? keysDirectory.appendingPathComponent(Self.privateKeyFileName(keyID))
    if file == nil { try PrivateFile.makeDirectory(keysDirectory) }
    try PrivateFile.write(pem, to: target)
    return target
  }

  /// Writes the registry (and a new private key with it, in one write on a shared storage).
  private func save(_ registry: APIKeyRegistry, privateKey: (name: String, pem: Data)? = nil) throws(APIKeyStoreError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let data: Data
    do { data = try encoder.encode(registry) } catch { throw .unwritable(path: registryLocation, reason: String(describing: error)) }
    if let storage {
      var items = [(Self.registryFileName, data)]
      if let privateKey { items.append((privateKey.name, privateKey.pem)) }
      do {
        try storage.writeAll(items, keys: Set(privateKey.map { [$0.name] } ?? []))
      } catch {
        throw .unwritable(path: registryLocation, reason: String(describing: error))
      }
      return
    }
    try PrivateFile.makeDirectory(directory)
    try PrivateFile.write(data, to: registryURL)
  }

  /// App Store Connect's key id form: 10 upper-case letters and digits.
  public static func isKeyID(_ text: String) -> Bool {
    text.utf8.count == 10 && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  static func makeKeyID(_ generator: inout some RandomNumberGenerator) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    return String((0..<10).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
  }

  /// A version-4 UUID from `generator`, lower-case like App Store Connect's issuer ids.
  static func makeIssuerID(_ generator: inout some RandomNumberGenerator) -> String {
    var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    return uuid.uuidString.lowercased()
  }
}
