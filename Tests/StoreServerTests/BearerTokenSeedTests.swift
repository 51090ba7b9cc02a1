import Foundation
import XCTest

@testable import StoreServer

/// The `bearer-token` fuzz target's seeds (tokens made with PyJWT, as Apple's Python library makes
/// them, against the public key in Fuzz/corpus/bearer-token-keys) and any regressions, fed to the verifier in-process.
final class BearerTokenSeedTests: XCTestCase {
  private static let fuzzRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz")

  private func verifier() -> BearerTokenVerifier {
    let keys = APIKeyRing(store: APIKeyStore(directory: Self.fuzzRoot.appendingPathComponent("corpus/bearer-token-keys")))
    return BearerTokenVerifier(keys: keys, bundleIDs: ["com.example.storefront"], now: { Date(timeIntervalSince1970: 1_767_225_600) })
  }

  private func seed(_ name: String) throws -> String {
    try String(contentsOf: Self.fuzzRoot.appendingPathComponent("corpus/bearer-token/\(name)"), encoding: .utf8)
  }

  func testEachSeedGetsItsVerdict() throws {
    let expected: [String: TokenRejection?] = [
      "python-client.txt": nil, "node-client-iat.txt": nil, "swift-client-fractional.txt": nil, "aud-array.txt": nil,
      "wrong-aud.txt": .wrongAudience, "wrong-bid.txt": .wrongBundleID, "too-long-lived.txt": .tooLongLived, "expired.txt": .expired,
      "unknown-kid.txt": .unknownKey("ZZZZZZZZZZ"), "exp-string.txt": .malformed, "alg-hs256.txt": .unsupportedAlgorithm("HS256"),
      "alg-none.txt": .malformed, "two-segments.txt": .malformed, "basic-scheme.txt": .malformed, "empty.txt": .missingAuthorization,
    ]
    let verifier = verifier()
    for (name, verdict) in expected {
      switch verifier.verify(authorization: try seed(name)) {
      case .success: XCTAssertNil(verdict, "\(name) was accepted")
      case .failure(let rejection): XCTAssertEqual(rejection, verdict, name)
      }
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzRoot.appendingPathComponent("corpus/bearer-token").path)
    XCTAssertEqual(Set(names), Set(expected.keys), "every seed has a verdict here")
  }

  func testRegressionsReturn() throws {
    let directory = Self.fuzzRoot.appendingPathComponent("regressions/bearer-token")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    let verifier = verifier()
    for name in names.sorted() {
      let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
      if case .success = verifier.verify(authorization: text) { XCTFail("\(name): a fuzzed token was accepted") }
    }
  }
}
