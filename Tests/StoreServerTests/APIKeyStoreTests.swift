import Foundation
import SandboxSigning
import StoreEngine
import XCTest

@testable import StoreServer

final class APIKeyStoreTests: XCTestCase {
  private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
  private let date = Date(timeIntervalSince1970: 1_767_225_600)

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func mode(_ url: URL) throws -> Int {
    try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
  }

  func testCreateWritesAnAppStoreConnectStyleP8ReadableOnlyByItsOwner() throws {
    let store = APIKeyStore(directory: directory)
    var generator = SplitMix64(seed: 1)
    let created = try store.create(name: "backend", now: date, generator: &generator)
    XCTAssertEqual(created.privateKeyFile.lastPathComponent, "AuthKey_\(created.key.keyID).p8")
    XCTAssertEqual(created.privateKeyFile.deletingLastPathComponent().lastPathComponent, "keys")
    XCTAssertEqual(try mode(created.privateKeyFile), 0o600)
    XCTAssertEqual(try mode(store.registryURL), 0o600)
    let pem = try String(contentsOf: created.privateKeyFile, encoding: .utf8)
    XCTAssertTrue(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), pem.prefix(40).description)
    XCTAssertTrue(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
    XCTAssertTrue(try PrivateKey(pem: Data(pem.utf8)).isP256)
    XCTAssertTrue(APIKeyStore.isKeyID(created.key.keyID), created.key.keyID)
    XCTAssertNotNil(UUID(uuidString: created.key.issuerID))
    XCTAssertEqual(created.key.issuerID, created.key.issuerID.lowercased())
    XCTAssertEqual(created.key.name, "backend")
    XCTAssertTrue(created.key.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
  }

  func testTheRegistryHoldsNoPrivateKey() throws {
    let store = APIKeyStore(directory: directory)
    var generator = SplitMix64(seed: 1)
    _ = try store.create(name: nil, now: date, generator: &generator)
    let registry = try String(contentsOf: store.registryURL, encoding: .utf8)
    XCTAssertFalse(registry.contains("PRIVATE KEY"))
    XCTAssertTrue(registry.contains("PUBLIC KEY"))
  }

  func testKeysOfOneDataDirectoryShareItsIssuer() throws {
    let store = APIKeyStore(directory: directory)
    var generator = SplitMix64(seed: 2)
    let first = try store.create(name: nil, now: date, generator: &generator)
    let second = try store.create(name: nil, now: date, generator: &generator)
    XCTAssertNotEqual(first.key.keyID, second.key.keyID)
    XCTAssertEqual(first.key.issuerID, second.key.issuerID)
    XCTAssertEqual(try store.load()?.issuerID, first.key.issuerID)
    XCTAssertEqual(try store.load()?.keys.map(\.keyID), [first.key.keyID, second.key.keyID])
  }

  func testImportRegistersAnExistingKeyUnderItsOwnIDs() throws {
    let store = APIKeyStore(directory: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("AuthKey_2X9R4HXF34.p8")
    try PrivateKey.generateP256().pem().write(to: file)
    var generator = SplitMix64(seed: 3)
    let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    let key = try store.importKey(from: file, keyID: "2X9R4HXF34", issuerID: issuer, name: nil, now: date, generator: &generator)
    XCTAssertEqual(key.keyID, "2X9R4HXF34")
    XCTAssertEqual(key.issuerID, issuer)
    XCTAssertEqual(try store.load()?.key("2X9R4HXF34"), key)
    XCTAssertThrowsError(try store.importKey(from: file, keyID: "2X9R4HXF34", issuerID: issuer, name: nil, now: date, generator: &generator)) {
      XCTAssertEqual($0 as? APIKeyStoreError, .duplicateKey("2X9R4HXF34"))
    }
  }

  func testImportRefusesBadIDsAndFilesThatAreNotKeys() throws {
    let store = APIKeyStore(directory: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("not-a-key.p8")
    try Data("hello".utf8).write(to: file)
    var generator = SplitMix64(seed: 4)
    let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    for (keyID, issuerID, expected) in [
      ("short", issuer, APIKeyStoreError.invalidKeyID("short")),
      ("lowercase1", issuer, .invalidKeyID("lowercase1")),
      ("2X9R4HXF34", "not-a-uuid", .invalidIssuerID("not-a-uuid")),
      ("2X9R4HXF34", issuer, .notAP256Key(path: file.path)),
    ] {
      XCTAssertThrowsError(try store.importKey(from: file, keyID: keyID, issuerID: issuerID, name: nil, now: date, generator: &generator)) {
        XCTAssertEqual($0 as? APIKeyStoreError, expected)
      }
    }
    XCTAssertNil(try store.load())
  }

  func testRevokeMarksTheKeyAndUnknownIDsFail() throws {
    let store = APIKeyStore(directory: directory)
    var generator = SplitMix64(seed: 5)
    let created = try store.create(name: nil, now: date, generator: &generator)
    let revoked = try store.revoke(created.key.keyID, now: date.addingTimeInterval(60))
    XCTAssertEqual(revoked.revoked, date.addingTimeInterval(60))
    XCTAssertEqual(try store.load()?.key(created.key.keyID)?.isRevoked, true)
    XCTAssertThrowsError(try store.revoke("NOSUCHKEY0", now: date)) { XCTAssertEqual($0 as? APIKeyStoreError, .unknownKey("NOSUCHKEY0")) }
  }
}
