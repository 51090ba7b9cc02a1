import Foundation
import XCTest

@testable import AppReceipt

/// The hand-written JSON of verifyReceipt answers: escapes as `JSONEncoder` writes them, and what
/// it writes parses back to the same values.
final class ReceiptJSONTests: XCTestCase {
  func test_escapes_exactBytes() {
    let value = ReceiptJSON.array([.string("a\"b\\c\n\r\t\u{01}\u{1F}/é"), .int(-42), .bool(true), .bool(false), .object([:])])
    XCTAssertEqual(String(decoding: value.data, as: UTF8.self), "[\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u001f/é\",-42,true,false,{}]")
  }

  func test_parsesBackToTheSameValues() throws {
    let value = ReceiptJSON.object([
      "status": .int(0), "environment": .string("Sandbox"), "is-retryable": .bool(true),
      "in_app": .array([.object(["product_id": .string("com.example.\"odd\"\\name\u{7F}\u{0B}"), "quantity": .string("1")])]),
    ])
    let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: value.data) as? [String: Any])
    XCTAssertEqual(parsed["status"] as? Int, 0)
    XCTAssertEqual(parsed["environment"] as? String, "Sandbox")
    XCTAssertEqual(parsed["is-retryable"] as? Bool, true)
    let entry = try XCTUnwrap((parsed["in_app"] as? [[String: String]])?.first)
    XCTAssertEqual(entry, ["product_id": "com.example.\"odd\"\\name\u{7F}\u{0B}", "quantity": "1"])
  }
}
