import Foundation
import SandboxSigning
import StoreEngine
import XCTest

final class PBKDF2PasswordHasherTests: XCTestCase {
  func test_knownAnswer_publishedVector() throws {
    // PBKDF2-HMAC-SHA256("password", "salt", 1 iteration, 32 bytes): the widely published test vector.
    let hasher = PBKDF2PasswordHasher(iterations: 1, randomBytes: { _ in Array("salt".utf8) })
    let hash = try hasher.hash(password: "password")
    XCTAssertEqual(hash.algorithm, "PBKDF2-HMAC-SHA256")
    XCTAssertEqual(hash.iterations, 1)
    XCTAssertEqual(hash.salt, Data("salt".utf8).base64EncodedString())
    let hex = try XCTUnwrap(Data(base64Encoded: hash.hash)).map { String(format: "%02x", $0) }.joined()
    XCTAssertEqual(hex, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")
  }

  func test_roundTrip_andWrongPassword_withDefaultIterations() throws {
    let hasher = PBKDF2PasswordHasher()
    XCTAssertGreaterThanOrEqual(hasher.iterations, 100_000)
    let stored = try hasher.hash(password: "ünïcode pässword 🔑")
    XCTAssertEqual(stored.iterations, PBKDF2PasswordHasher.defaultIterations)
    XCTAssertEqual(try XCTUnwrap(Data(base64Encoded: stored.salt)).count, 16)
    XCTAssertEqual(try XCTUnwrap(Data(base64Encoded: stored.hash)).count, 32)
    XCTAssertTrue(hasher.verify(password: "ünïcode pässword 🔑", against: stored))
    XCTAssertFalse(hasher.verify(password: "ünïcode pässword 🔒", against: stored))
    XCTAssertFalse(hasher.verify(password: "", against: stored))
  }

  func test_saltsAreRandom() throws {
    let hasher = PBKDF2PasswordHasher(iterations: 1_000)
    let first = try hasher.hash(password: "secret")
    let second = try hasher.hash(password: "secret")
    XCTAssertNotEqual(first.salt, second.salt)
    XCTAssertNotEqual(first.hash, second.hash)
    XCTAssertTrue(hasher.verify(password: "secret", against: second))
  }

  func test_verifyUsesTheStoredIterationCount() throws {
    let stored = try PBKDF2PasswordHasher(iterations: 2_000).hash(password: "secret")
    XCTAssertTrue(PBKDF2PasswordHasher(iterations: 5).verify(password: "secret", against: stored))
    var changed = stored
    changed.iterations = 2_001
    XCTAssertFalse(PBKDF2PasswordHasher().verify(password: "secret", against: changed))
  }

  func test_damagedOrForeignHashes_neverMatch() throws {
    let hasher = PBKDF2PasswordHasher(iterations: 1_000)
    let stored = try hasher.hash(password: "secret")
    var foreign = stored
    foreign.algorithm = "bcrypt"
    var badSalt = stored
    badSalt.salt = "***"
    var emptyHash = stored
    emptyHash.hash = ""
    var zeroIterations = stored
    zeroIterations.iterations = 0
    for damaged in [foreign, badSalt, emptyHash, zeroIterations] {
      XCTAssertFalse(hasher.verify(password: "secret", against: damaged), "\(damaged)")
    }
  }
}
