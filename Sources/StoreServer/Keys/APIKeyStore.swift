import Foundation
import SandboxSigning

/// The API keys of a data directory: public halves and revocations in `api-keys.json` (0600), the
/// private keys `keys create` makes in `keys/AuthKey_<KEYID>.p8` (0600), as App Store Connect hands them out.
public struct APIKeyStore: Sendable {
  public static let registryFileName = "api-keys.json"
  public static let keysFolderName = "keys"

  /// The data directory.
  public let directory: URL

  public init(directory: URL) { self.directory = directory }

  public var registryURL: URL { directory.appendingPathComponent(Self.registryFileName) }
  public var keysDirectory: URL { directory.appendingPathComponent(Self.keysFolderName, isDirectory: true) }

  /// The registry, or nil while no key was ever made or imported here.
  public func load() throws(APIKeyStoreError) -> APIKeyRegistry? {
    guard FileManager.default.fileExists(atPath: registryURL.path) else { return nil }
    do {
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      return try decoder.decode(APIKeyRegistry.self, from: Data(contentsOf: registryURL))
    } catch {
      throw .unreadable(path: registryURL.path, reason: String(describing: error))
    }
  }

  /// Makes a P-256 key, writes its `.p8` and registers its public half under this directory's issuer.
  public func create(name: String?, now: Date, generator: inout some RandomNumberGenerator) throws(APIKeyStoreError) -> CreatedAPIKey {
    var registry = try load() ?? APIKeyRegistry(issuerID: Self.makeIssuerID(&generator))
    var keyID = Self.makeKeyID(&generator)
    while registry.key(keyID) != nil { keyID = Self.makeKeyID(&generator) }
    let file = keysDirectory.appendingPathComponent("AuthKey_\(keyID).p8")
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
    try save(registry)
    return CreatedAPIKey(key: key, privateKeyFile: file)
  }

  /// Registers the public half of an existing `.p8` (a developer's App Store Connect key) under its own ids.
  public func importKey(
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
    guard var registry = try load(), let index = registry.keys.firstIndex(where: { $0.keyID == keyID }) else {
      throw .unknownKey(keyID)
    }
    if registry.keys[index].revoked == nil { registry.keys[index].revoked = now }
    try save(registry)
    return registry.keys[index]
  }

  private func save(_ registry: APIKeyRegistry) throws(APIKeyStoreError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let data: Data
    do { data = try encoder.encode(registry) } catch { throw .unwritable(path: registryURL.path, reason: String(describing: error)) }
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
