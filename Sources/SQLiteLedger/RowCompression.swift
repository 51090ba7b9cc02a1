import CZlib
import Foundation
import StoreEngine

/// Deflates a transaction row's JSON for storage, and inflates it back.
///
/// A renewal's row (its fields plus two JWS payloads) is ~2.1 KB of JSON, so a 4 KB page held one
/// row and half a page of nothing; deflated it is ~0.9 KB. Stored as a BLOB: 4 bytes of the JSON's
/// length (little endian), then the zlib stream. Small rows (no signed data) and rows written by
/// schema v1 are TEXT and read as they are.
enum RowCompression {
  /// Rows up to this many bytes of JSON are stored as TEXT, uncompressed.
  static let threshold = 1024

  /// The row for `json`: its length, then the zlib stream (level 1); nil if zlib fails.
  static func deflate(_ json: String) -> Data? {
    var json = json
    return json.withUTF8 { input -> Data? in
      var output = Data(count: Int(compressBound(uLong(input.count))) + 4)
      let written = output.withUnsafeMutableBytes { raw -> Int? in
        let bytes = raw.bindMemory(to: UInt8.self)
        let count = UInt32(input.count)
        for index in 0..<4 { bytes[index] = UInt8((count >> (8 * UInt32(index))) & 0xFF) }
        return deflater.withLock { $0.deflate(input, into: UnsafeMutableBufferPointer(rebasing: bytes[4...])) }
      }
      guard let written else { return nil }
      output.count = 4 + written
      return output
    }
  }

  /// One zlib stream for every row, reset between rows. `compress2` set up and freed deflate's
  /// ~256 KB of state for each row; on this project's 2-core VM, handing that memory back and
  /// faulting it in again cost four times the compression itself (in C, on renewal rows of 2.2 KB:
  /// 79 µs a row with `compress2`, 16 µs with one stream reset per row, and 16 µs with
  /// `compress2` when glibc is told not to trim). Reset gives the state a fresh `deflateInit`
  /// gives, so the bytes are the ones `compress2` wrote (`RowCompressionTests`).
  private static let deflater = Locked(Deflater())

  private final class Deflater {
    private var stream = z_stream()
    private let ready: Bool

    init() {
      // `deflateInit(level)` is a macro; these are its arguments (what `compress2` uses).
      ready = deflateInit_(&stream, 1, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit { deflateEnd(&stream) }

    /// How many bytes of `output` the stream for `input` took; nil if zlib failed.
    func deflate(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
      guard ready, deflateReset(&stream) == Z_OK else { return nil }
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = uInt(input.count)
      stream.next_out = output.baseAddress
      stream.avail_out = uInt(output.count)
      defer {
        stream.next_in = nil
        stream.next_out = nil
      }
      guard CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END else { return nil }
      return output.count - Int(stream.avail_out)
    }
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
