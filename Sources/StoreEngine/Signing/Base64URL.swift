/// Base64url (RFC 4648 §5, no padding) straight into and out of byte buffers.
///
/// A JWS is built and read by the thousand in an advance: going through Foundation's base64 and then
/// swapping characters made a string, an array and a second copy per segment.
public enum Base64URL {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// Each byte's 6-bit value, 0xFF for a byte outside both alphabets (url's `-_` and standard `+/`).
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
    table[Int(UInt8(ascii: "+"))] = 62
    table[Int(UInt8(ascii: "/"))] = 63
    return table
  }()

  /// Appends the base64url text of `bytes`, without padding, to `output`.
  public static func append(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
    output.reserveCapacity(output.count + (bytes.count * 4 + 2) / 3)
    alphabet.withUnsafeBufferPointer { table in
      var index = 0
      while index + 3 <= bytes.count {
        let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
        output.append(table[Int(word >> 18)])
        output.append(table[Int(word >> 12 & 0x3F)])
        output.append(table[Int(word >> 6 & 0x3F)])
        output.append(table[Int(word & 0x3F)])
        index += 3
      }
      switch bytes.count - index {
      case 1:
        let word = UInt32(bytes[index]) << 16
        output.append(table[Int(word >> 18)])
        output.append(table[Int(word >> 12 & 0x3F)])
      case 2:
        let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
        output.append(table[Int(word >> 18)])
        output.append(table[Int(word >> 12 & 0x3F)])
        output.append(table[Int(word >> 6 & 0x3F)])
      default: break
      }
    }
  }

  /// The bytes of base64url (or standard base64) `text`, padded or not; nil when it is neither
  /// (a byte outside the alphabets, padding before the end, or a length no encoding has).
  public static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var end = text.count
    if end > 0, text[end - 1] == UInt8(ascii: "=") { end -= 1 }
    if end > 0, text[end - 1] == UInt8(ascii: "=") { end -= 1 }
    // Padding, when there is any, completes the last quantum exactly.
    guard end == text.count || text.count % 4 == 0, end % 4 != 1 else { return nil }
    var output = [UInt8]()
    output.reserveCapacity(end / 4 * 3 + 2)
    return values.withUnsafeBufferPointer { table -> [UInt8]? in
      var word: UInt32 = 0
      var filled = 0
      for index in 0..<end {
        let value = table[Int(text[index])]
        guard value != 0xFF else { return nil }
        word = word << 6 | UInt32(value)
        filled += 1
        if filled == 4 {
          output.append(UInt8(word >> 16 & 0xFF))
          output.append(UInt8(word >> 8 & 0xFF))
          output.append(UInt8(word & 0xFF))
          word = 0
          filled = 0
        }
      }
      switch filled {
      case 2: output.append(UInt8(word >> 4 & 0xFF))
      case 3:
        output.append(UInt8(word >> 10 & 0xFF))
        output.append(UInt8(word >> 2 & 0xFF))
      default: break
      }
      return output
    }
  }
}
