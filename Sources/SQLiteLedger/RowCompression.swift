import CZlib
import Foundation

/// Deflates a transaction row's JSON for storage, and inflates it back.
///
/// A renewal's row (its fields plus two JWS payloads) is ~2.1 KB of JSON, so a 4 KB page held one
/// row and half a page of nothing; deflated it is ~0.9 KB. Stored as a BLOB: 4 bytes of the JSON's
/// length (little endian), then the zlib stream. Small rows (no signed data) and rows written by
/// schema v1 are TEXT and read as they are.
enum RowCompression {
  /// Rows up to this many bytes of JSON are stored as TEXT, uncompressed.
  static let threshold = 1024

  static func deflate(_ json: String) -> Data? {
    let input = Array(json.utf8)
    var capacity = compressBound(uLong(input.count))
    var output = [UInt8](repeating: 0, count: Int(capacity) + 4)
    let count = UInt32(input.count)
    output[0] = UInt8(count & 0xFF)
    output[1] = UInt8((count >> 8) & 0xFF)
    output[2] = UInt8((count >> 16) & 0xFF)
    output[3] = UInt8((count >> 24) & 0xFF)
    let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return Z_MEM_ERROR }
      return input.withUnsafeBufferPointer { source in
        compress2(base + 4, &capacity, source.baseAddress, uLong(input.count), 1)
      }
    }
    guard status == Z_OK else { return nil }
    return Data(output[0..<(4 + Int(capacity))])
  }

  /// The JSON bytes of a stored row; nil when the blob is damaged.
  static func inflate(_ blob: Data) -> Data? {
    guard blob.count > 4 else { return nil }
    let bytes = [UInt8](blob)
    let count = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
    guard count > 0, count < 64 << 20 else { return nil }
    var output = [UInt8](repeating: 0, count: count)
    var length = uLong(count)
    let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
      bytes.withUnsafeBufferPointer { source in
        uncompress(buffer.baseAddress, &length, source.baseAddress.map { $0 + 4 }, uLong(bytes.count - 4))
      }
    }
    guard status == Z_OK, Int(length) == count else { return nil }
    return Data(output)
  }
}
