import CZlib
import Foundation
import XCTest

@testable import SQLiteLedger

/// Rows are deflated by one zlib stream reset per row; the bytes must be those `compress2` (a fresh
/// stream per row, as every earlier ledger was written) gives, and read back.
final class RowCompressionTests: XCTestCase {
  func testOneStreamWritesTheBytesCompress2Writes() throws {
    var generator = SplitMix(seed: 34)
    // Renewal-like rows (base64url-ish text with repeats), from empty to past zlib's 64 KB chunks.
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.{}\":,")
    for size in [0, 1, 100, 1_025, 2_200, 7_000, 70_000, 300_000] {
      for _ in 0..<3 {
        var json = ""
        while json.utf8.count < size {
          let word = String((0..<Int(generator.next() % 40 + 1)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
          json += generator.next() % 3 == 0 ? "\"isFinished\":true," : word
        }
        let row = try XCTUnwrap(RowCompression.deflate(json), "size \(size)")
        XCTAssertEqual(row, Self.compress2Row(json), "size \(size)")
        XCTAssertEqual(RowCompression.inflate(row).map { String(decoding: $0, as: UTF8.self) }, size == 0 ? nil : json, "size \(size)")
      }
    }
  }

  /// The row as `RowCompression` wrote it before it kept a stream: `compress2` at level 1.
  private static func compress2Row(_ json: String) -> Data {
    let input = Array(json.utf8)
    var capacity = compressBound(uLong(input.count))
    var output = [UInt8](repeating: 0, count: Int(capacity))
    XCTAssertEqual(compress2(&output, &capacity, input, uLong(input.count), 1), Z_OK)
    let count = UInt32(input.count)
    return Data([0, 8, 16, 24].map { UInt8((count >> $0) & 0xFF) } + output[0..<Int(capacity)])
  }
}
