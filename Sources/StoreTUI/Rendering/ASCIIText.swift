/// Helpers for the common case of printable ASCII text: one byte, one scalar, one cell.
///
/// Drawing most screen text byte by byte instead of grapheme by grapheme is what keeps a table
/// row cheap; text with anything else (controls, tabs, non-ASCII) takes the general path.
enum ASCIIText {
  /// The `Character` of every ASCII byte, so cells are stored without building graphemes.
  static let characters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

  /// The number of bytes when every one is printable ASCII (0x20...0x7E), else `nil`.
  static func printableCount(_ bytes: some Sequence<UInt8>) -> Int? {
    if let count = bytes.withContiguousStorageIfAvailable({ scan($0) }) { return count }
    return scan(bytes)
  }

  @inline(__always)
  private static func scan(_ bytes: some Sequence<UInt8>) -> Int? {
    var count = 0
    for byte in bytes {
      guard byte >= 0x20, byte < 0x7F else { return nil }
      count += 1
    }
    return count
  }
}
