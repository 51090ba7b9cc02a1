import Foundation
import StorefrontProcessTestSupport
import SandboxSigning
import StoreEngine
import XCTest

@testable import StoreServer

final class BearerTokenVerifierTests: XCTestCase {
  private let now = 1_767_225_600.0
  private let clock = Locked(Date(timeIntervalSince1970: 1_767_225_600))

  /// A data directory with one key, and that key's private half to sign with.
  private struct Fixture {
    var store: APIKeyStore
    var created: CreatedAPIKey
    var key: PrivateKey
  }

  private func fixture() throws -> Fixture {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verifier-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let store = APIKeyStore(directory: directory)
    var generator = SplitMix64(seed: 7)
    let created = try store.create(name: "test", now: Date(timeIntervalSince1970: now), generator: &generator)
    return Fixture(store: store, created: created, key: try PrivateKey(pem: Data(contentsOf: created.privateKeyFile)))
  }

  private func verifier(_ f: Fixture) -> BearerTokenVerifier {
    let clock = clock
    return BearerTokenVerifier(keys: APIKeyRing(store: f.store), bundleIDs: ["com.example.storefront"], now: { clock.withLock { $0 } })
  }

  private func good(_ f: Fixture) -> TestToken {
    TestToken(keyID: f.created.key.keyID, issuerID: f.created.key.issuerID, expires: now + 300)
  }

  private func bearer(_ token: TestToken, key: PrivateKey) throws -> String {
    "Bearer " + (try token.signed(by: key.signES256))
  }

  /// One row per rule of reference §3.3: the header, and what the verifier must say.
  func testTheTokenTable() throws {
    let f = try fixture()
    let otherKey = try PrivateKey.generateP256()
    var rows: [(String, String?, TokenRejection?)] = []
    func row(_ name: String, _ edit: (inout TestToken) -> Void, key: PrivateKey? = nil, expect: TokenRejection?) throws {
      var token = good(f)
      edit(&token)
      rows.append((name, try bearer(token, key: key ?? f.key), expect))
    }
    rows.append(("missing", nil, .missingAuthorization))
    rows.append(("empty", "", .missingAuthorization))
    rows.append(("basic scheme", "Basic dXNlcjpwYXNz", .malformed))
    rows.append(("not a JWT", "Bearer not-a-token", .malformed))
    rows.append(("two parts", "Bearer eyJhbGciOiJFUzI1NiJ9.e30", .malformed))
    rows.append(("not JSON", "Bearer aGVsbG8.d29ybGQ.c2ln", .malformed))
    rows.append(("empty signature", "Bearer " + (try good(f).signed(by: f.key.signES256)).split(separator: ".").prefix(2).joined(separator: ".") + ".", .malformed))
    try row("good", { _ in }, expect: nil)
    try row("lower-case scheme accepted", { _ in }, expect: nil)
    rows[rows.count - 1].1 = rows[rows.count - 1].1.map { "bearer " + $0.dropFirst(7) }
    try row("expired", { $0.claims["exp"] = self.now - 1 }, expect: .expired)
    try row("expires now", { $0.claims["exp"] = self.now }, expect: .expired)
    try row("no exp", { $0.claims["exp"] = nil }, expect: .missingExpiry)
    try row("exp a string", { $0.claims["exp"] = "soon" }, expect: .malformed)
    try row("alg HS256", { $0.header["alg"] = "HS256" }, expect: .unsupportedAlgorithm("HS256"))
    try row("alg none", { $0.header["alg"] = "none" }, expect: .unsupportedAlgorithm("none"))
    try row("no alg", { $0.header["alg"] = nil }, expect: .unsupportedAlgorithm(nil))
    try row("unknown kid", { $0.header["kid"] = "ZZZZZZZZZZ" }, expect: .unknownKey("ZZZZZZZZZZ"))
    try row("no kid", { $0.header["kid"] = nil }, expect: .unknownKey(nil))
    try row("signed by another key", { _ in }, key: otherKey, expect: .badSignature)
    try row("wrong iss", { $0.claims["iss"] = UUID().uuidString.lowercased() }, expect: .wrongIssuer)
    try row("no iss", { $0.claims["iss"] = nil }, expect: .wrongIssuer)
    try row("wrong aud", { $0.claims["aud"] = "appstoreconnect-v2" }, expect: .wrongAudience)
    try row("no aud", { $0.claims["aud"] = nil }, expect: .wrongAudience)
    try row("aud array", { $0.claims["aud"] = ["other", "appstoreconnect-v1"] }, expect: nil)
    try row("wrong bid", { $0.claims["bid"] = "com.example.other" }, expect: .wrongBundleID)
    try row("no bid", { $0.claims["bid"] = nil }, expect: .wrongBundleID)
    try row("exp 3601 s after iat", { $0.claims["iat"] = self.now - 1; $0.claims["exp"] = self.now + 3600 }, expect: .tooLongLived)
    try row("exp 3600 s after iat", { $0.claims["iat"] = self.now; $0.claims["exp"] = self.now + 3600 }, expect: nil)
    try row("no iat, exp in 61 min", { $0.claims["exp"] = self.now + 3660 }, expect: .tooLongLived)
    try row("fractional iat and exp", { $0.claims["iat"] = self.now - 0.25; $0.claims["exp"] = self.now + 299.75 }, expect: nil)
    try row("unknown claims ignored", { $0.claims["nonce"] = "abc"; $0.header["x"] = 1 }, expect: nil)
    try row("no typ", { $0.header["typ"] = nil }, expect: nil)
    let verifier = verifier(f)
    for (name, header, expected) in rows {
      switch verifier.verify(authorization: header) {
      case .success(let token):
        XCTAssertNil(expected, "\(name): accepted")
        XCTAssertEqual(token.keyID, f.created.key.keyID, name)
      case .failure(let rejection):
        XCTAssertEqual(rejection, expected, name)
      }
    }
    XCTAssertGreaterThanOrEqual(rows.count, 30)
  }

  func testAcceptedTokenCarriesItsClaims() throws {
    let f = try fixture()
    let token = try XCTUnwrap(try? verifier(f).verify(authorization: bearer(good(f), key: f.key)).get())
    XCTAssertEqual(token, VerifiedToken(
      keyID: f.created.key.keyID, issuerID: f.created.key.issuerID, bundleID: "com.example.storefront",
      expires: Date(timeIntervalSince1970: now + 300)))
  }

  func testARevokedKeyStopsWorkingAtOnceEvenForACachedToken() throws {
    let f = try fixture()
    let verifier = verifier(f)
    let header = try bearer(good(f), key: f.key)
    XCTAssertNoThrow(try verifier.verify(authorization: header).get())
    _ = try f.store.revoke(f.created.key.keyID, now: Date(timeIntervalSince1970: now))
    XCTAssertEqual(verifier.verify(authorization: header), .failure(.revokedKey(f.created.key.keyID)))
    XCTAssertEqual(verifier.verify(authorization: try bearer(good(f), key: f.key)), .failure(.revokedKey(f.created.key.keyID)))
  }

  func testACachedTokenStillExpires() throws {
    let f = try fixture()
    let verifier = verifier(f)
    let header = try bearer(good(f), key: f.key)
    XCTAssertNoThrow(try verifier.verify(authorization: header).get())
    clock.withLock { $0 = Date(timeIntervalSince1970: now + 300) }
    XCTAssertEqual(verifier.verify(authorization: header), .failure(.expired))
  }

  func testAKeyCreatedWhileServingIsTrustedAtTheNextRequest() throws {
    let f = try fixture()
    let verifier = verifier(f)
    XCTAssertNoThrow(try verifier.verify(authorization: bearer(good(f), key: f.key)).get())
    var generator = SplitMix64(seed: 8)
    let second = try f.store.create(name: nil, now: Date(timeIntervalSince1970: now), generator: &generator)
    let secondKey = try PrivateKey(pem: Data(contentsOf: second.privateKeyFile))
    let token = TestToken(keyID: second.key.keyID, issuerID: second.key.issuerID, expires: now + 60)
    XCTAssertEqual(try verifier.verify(authorization: bearer(token, key: secondKey)).get().keyID, second.key.keyID)
  }
}
