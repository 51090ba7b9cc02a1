import Foundation
import StoreEngine
import XCTest

final class CompactJWSTests: XCTestCase {
  func test_splitsAndDecodesTheUnsignedTestSignersOutput() throws {
    let payload = Data(#"{"bundleId":"a.b","signedDate":1714521600000}"#.utf8)
    let jws = try CompactJWS(try UnsignedTestSigner().sign(payload: payload))
    XCTAssertEqual(jws.header.alg, "ES256")
    XCTAssertEqual(jws.header.x5c, [])
    XCTAssertEqual(jws.payloadData, payload)
    XCTAssertEqual(jws.payloadString("bundleId"), "a.b")
    XCTAssertEqual(jws.payloadNumber("signedDate"), 1_714_521_600_000)
    XCTAssertEqual(jws.signature.count, 64)
    XCTAssertEqual(jws.prettyPayloadJSON, "{\n  \"bundleId\" : \"a.b\",\n  \"signedDate\" : 1714521600000\n}")
  }

  func test_rejectsMalformedInput() {
    let header = Data(#"{"alg":"ES256"}"#.utf8).base64URLEncoded
    let payload = Data(#"{"a":1}"#.utf8).base64URLEncoded
    let cases: [(String, JWSDecodingError)] = [
      ("abc", .segmentCount(1)),
      ("\(header).\(payload)", .segmentCount(2)),
      ("\(header).\(payload)=.AAAA", .invalidBase64(segment: "payload")),
      ("\(header).\(payload).AA+A", .invalidBase64(segment: "signature")),
      ("\(Data("[1]".utf8).base64URLEncoded).\(payload).AAAA", .invalidJSON(segment: "header")),
      ("\(header).\(Data("\"text\"".utf8).base64URLEncoded).AAAA", .invalidJSON(segment: "payload")),
    ]
    for (text, expected) in cases {
      XCTAssertThrowsError(try CompactJWS(text), text) { error in
        XCTAssertEqual(error as? JWSDecodingError, expected, text)
      }
    }
  }
}
