import Foundation
import StoreEngine
import XCTest

/// Builders of deliberately broken JWS for the negative tests.
enum TamperedJWS {
  /// Replaces `original` with `replacement` (same length) inside the payload, keeping header and
  /// signature: a one-byte change when the two differ in one character.
  static func editingPayload(_ jws: String, replacing original: String, with replacement: String) throws -> String {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(parts.count, 3)
    let payload = String(decoding: try XCTUnwrap(Data(base64URLEncoded: Substring(parts[1]))), as: UTF8.self)
    XCTAssertTrue(payload.contains(original), "\(original) not in \(payload)")
    let edited = payload.replacingOccurrences(of: original, with: replacement)
    XCTAssertEqual(edited.utf8.count, payload.utf8.count)
    XCTAssertEqual(zip(edited.utf8, payload.utf8).filter { $0 != $1 }.count, 1, "exactly one byte differs")
    return [parts[0], Data(edited.utf8).base64URLEncoded, parts[2]].joined(separator: ".")
  }

  /// A JWS with an arbitrary header and a garbage signature.
  static func withHeader(_ headerJSON: String, payload: Data) -> String {
    [Data(headerJSON.utf8), payload, Data(repeating: 1, count: 64)].map(\.base64URLEncoded).joined(separator: ".")
  }
}
