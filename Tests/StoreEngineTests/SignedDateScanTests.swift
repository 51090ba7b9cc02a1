import Foundation
import StoreEngine
import XCTest

/// `CompactJWS.signedDateMilliseconds(of:)` reads the payload's top-level `signedDate` by a byte scan.
final class SignedDateScanTests: XCTestCase {
  private func jws(_ payload: String) -> String {
    let encoded = Data(payload.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    return "eyJhbGciOiJFUzI1NiJ9.\(encoded).c2ln"
  }

  func testReadsTheTopLevelKeyOnly() {
    XCTAssertEqual(CompactJWS.signedDateMilliseconds(of: jws(#"{"a":1,"signedDate":1714521600000}"#)), 1_714_521_600_000)
    XCTAssertEqual(CompactJWS.signedDateMilliseconds(of: jws(#"{ "signedDate" : -5 , "b":2}"#)), -5)
    XCTAssertEqual(
      CompactJWS.signedDateMilliseconds(of: jws(#"{"offer":{"signedDate":1},"note":"\"signedDate\":2","signedDate":3}"#)), 3,
      "a nested key and an escaped one in a string are not the key")
    XCTAssertEqual(CompactJWS.signedDateMilliseconds(of: jws(#"{"list":["signedDate",{"signedDate":9}],"signedDate":4}"#)), 4)
  }

  func testAnAbsentOrNonIntegerValueIsNil() {
    XCTAssertNil(CompactJWS.signedDateMilliseconds(of: jws(#"{"purchaseDate":1}"#)))
    XCTAssertNil(CompactJWS.signedDateMilliseconds(of: jws(#"{"signedDate":"1"}"#)))
    XCTAssertNil(CompactJWS.signedDateMilliseconds(of: jws(#"{"signedDate":1.5}"#)))
    XCTAssertNil(CompactJWS.signedDateMilliseconds(of: jws(#"{"signedDate":99999999999999999999}"#)))
    XCTAssertNil(CompactJWS.signedDateMilliseconds(of: jws(#"{"signedDate""#)), "a truncated payload")
    XCTAssertNil(CompactJWS.signedDateMilliseconds(of: "not a jws"))
  }

  /// The scan agrees with JSONDecoder on payloads the signer writes (random values, sorted keys).
  func testAgreesWithJSONDecoderOnSignedPayloads() throws {
    struct Payload: Codable {
      var transactionId: String
      var signedDate: Int64
      var price: Int64
      var appAccountToken: String
    }
    var generator = SplitMix64(seed: 23)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for _ in 0..<200 {
      let payload = Payload(
        transactionId: String(UInt64.random(in: 0...UInt64.max, using: &generator)),
        signedDate: Int64.random(in: 0...4_102_444_800_000, using: &generator), price: Int64.random(in: 0...99_999, using: &generator),
        appAccountToken: "\"signedDate\":\(Int.random(in: 0...9, using: &generator))")
      let json = String(decoding: try encoder.encode(payload), as: UTF8.self)
      XCTAssertEqual(CompactJWS.signedDateMilliseconds(of: jws(json)), payload.signedDate, json)
    }
  }
}
