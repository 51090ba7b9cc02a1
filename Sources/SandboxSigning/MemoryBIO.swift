import COpenSSL
import Foundation

/// Helpers for OpenSSL's in-memory BIOs.
enum MemoryBIO {
  /// Runs `body` with a read-only BIO over `data`.
  static func reading<Result>(_ data: Data, _ body: (OpaquePointer) throws -> Result) throws -> Result {
    try data.withUnsafeBytes { raw in
      guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
        throw OpenSSLError.capture("creating a memory buffer")
      }
      defer { BIO_free(bio) }
      return try body(bio)
    }
  }

  /// Runs `write` against an empty memory BIO and returns what it wrote.
  static func writing(_ operation: String, _ write: (OpaquePointer) -> Bool) throws -> Data {
    guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLError.capture("creating a memory buffer") }
    defer { BIO_free(bio) }
    guard write(bio) else { throw OpenSSLError.capture(operation) }
    var pointer: UnsafeMutablePointer<CChar>?
    let length = sf_BIO_get_mem_data(bio, &pointer)
    guard let pointer, length > 0 else { return Data() }
    return Data(bytes: pointer, count: length)
  }
}
