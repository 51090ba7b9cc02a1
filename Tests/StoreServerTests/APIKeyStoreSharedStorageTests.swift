import Foundation
import SandboxSigning
import StoreEngine
import XCTest

@testable import StoreServer

/// The API keys on a shared storage (a team's database in the product; in memory here): the
/// registry and new private keys go there, private keys marked to be sealed, and a running ring
/// sees another machine's revoke at the next request.
final class APIKeyStoreSharedStorageTests: XCTestCase {
  /// A storage in memory that records which items it was told are private.
  private final class MemoryStorage: SecretStorage, @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var items: [String: Data] = [:]
    private(set) var privateItems: Set<String> = []
    private(set) var locked = 0

    func withLock<Result>(_ body: () throws -> Result) throws -> Result {
      lock.lock()
      defer { lock.unlock() }
      locked += 1
      return try body()
    }

    func present(_ names: [String]) throws -> [String] { lock.withLock { names.filter { items[$0] != nil } } }

    func read(_ name: String) throws -> Data {
      guard let data = lock.withLock({ items[name] }) else { throw SandboxCAError.incomplete(directory: location, missing: [name]) }
      return data
    }

    func writeAll(_ written: [(String, Data)], keys: Set<String>) throws {
      lock.withLock {
        for (name, data) in written { items[name] = data }
        privateItems.formUnion(keys)
      }
    }

    func describe(_ name: String) -> String { "\(name) in memory" }
    var location: String { "memory" }
  }

  private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-keys-\(UUID().uuidString)")
  private let date = Date(timeIntervalSince1970: 1_767_225_600)

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  func testKeysMadeOnTwoMachinesShareTheRegistryAndTheirPrivateKeys() throws {
    let storage = MemoryStorage()
    let machineA = APIKeyStore(directory: directory.appendingPathComponent("a"), storage: storage)
    let machineB = APIKeyStore(directory: directory.appendingPathComponent("b"), storage: storage)
    var generator = SplitMix64(seed: 7)
    let first = try machineA.create(name: "a", now: date, generator: &generator)
    let second = try machineB.create(name: "b", now: date, generator: &generator)
    XCTAssertEqual(storage.locked, 2, "each create is a locked read-modify-write")
    XCTAssertFalse(FileManager.default.fileExists(atPath: machineA.registryURL.path), "no local registry")
    XCTAssertEqual(try machineA.load()?.keys.map(\.keyID), [first.key.keyID, second.key.keyID])
    XCTAssertEqual(try machineB.load()?.issuerID, first.key.issuerID, "one issuer for the team")
    XCTAssertEqual(storage.privateItems, ["AuthKey_\(first.key.keyID).p8", "AuthKey_\(second.key.keyID).p8"])
    XCTAssertEqual(machineA.registryLocation, "api-keys.json in memory")

    // B gets A's .p8 from the storage, byte for byte, written 0600.
    let exported = try machineB.exportPrivateKey(first.key.keyID)
    XCTAssertEqual(exported, machineB.keysDirectory.appendingPathComponent("AuthKey_\(first.key.keyID).p8"))
    XCTAssertEqual(try Data(contentsOf: exported), try Data(contentsOf: first.privateKeyFile))
    XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: exported.path)[.posixPermissions] as? Int, 0o600)
    XCTAssertThrowsError(try machineB.privateKey("AAAAAAAAAA")) { error in
      XCTAssertTrue("\(error)".contains("AuthKey_AAAAAAAAAA.p8 in memory"), "\(error)")
    }
  }

  func testARingSeesAnotherMachinesRevokeAtTheNextLookup() throws {
    let storage = MemoryStorage()
    let machineA = APIKeyStore(directory: directory.appendingPathComponent("a"), storage: storage)
    let ring = APIKeyRing(store: APIKeyStore(directory: directory.appendingPathComponent("b"), storage: storage))
    var generator = SplitMix64(seed: 8)
    XCTAssertNil(ring.entry("AAAAAAAAAA"))
    let created = try machineA.create(name: nil, now: date, generator: &generator)
    let entry = try XCTUnwrap(ring.entry(created.key.keyID), "a key made elsewhere counts at once")
    XCTAssertNil(entry.key.revoked)
    XCTAssertNotNil(entry.publicKey)
    _ = try machineA.revoke(created.key.keyID, now: date)
    XCTAssertEqual(ring.entry(created.key.keyID)?.key.revoked, date)
  }
}
