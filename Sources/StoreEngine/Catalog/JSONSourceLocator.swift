import Foundation

/// Finds where things are in JSON text: the line and column of a byte offset, and the offset of
/// the value at a ``JSONPath``.
///
/// This is not a parser: values come from `JSONDecoder` (see ``JSONValue``). The locator only follows strings,
/// escapes and brackets so error messages can point into the file. It runs only when a catalog has
/// problems, so loading a valid catalog never pays for it.
struct JSONSourceLocator {
  let bytes: [UInt8]
  private let lineStarts: [Int]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [0]
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      starts.append(offset + 1)
    }
    lineStarts = starts
  }

  /// 1-based line and column of `offset`; columns count Unicode scalars, not bytes, and a `\r`
  /// before `\n` is not counted.
  func position(of offset: Int) -> (line: Int, column: Int) {
    let target = min(max(offset, 0), bytes.count)
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= target { low = middle } else { high = middle - 1 }
    }
    var column = 1
    var index = lineStarts[low]
    while index < target {
      let byte = bytes[index]
      if byte & 0xC0 != 0x80 && byte != UInt8(ascii: "\r") { column += 1 }
      index += 1
    }
    return (low + 1, column)
  }

  /// The offset of the first byte of every value, keyed by its path.
  ///
  /// Expects text that Foundation accepted. The first of duplicate keys wins, as in `JSONDecoder`.
  func valueOffsets() -> [JSONPath: Int] {
    valueRanges().mapValues(\.lowerBound)
  }

  /// The first byte that is not valid UTF-8 (RFC 3629: no overlong forms, no surrogates), if any.
  static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int? {
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, low) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, high) = (3, 0x9F)
      case 0xF0: (length, low) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, high) = (4, 0x8F)
      default: return index
      }
      for step in 1..<length {
        guard index + step < bytes.count else { return index }
        let byte = bytes[index + step]
        let range = step == 1 ? low...high : 0x80...0xBF
        if !range.contains(byte) { return index }
      }
      index += length
    }
    return nil
  }

  // MARK: - Scanning

  /// The bytes of every value (from its first byte to just past its last), keyed by its path: the
  /// editor's ``JSONTextMap`` of the text, flattened.
  func valueRanges() -> [JSONPath: Range<Int>] {
    JSONTextMap(bytes).allRanges()
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  static func isDelimiter(_ byte: UInt8) -> Bool {
    isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}")
      || byte == UInt8(ascii: "]") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "{")
      || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "\"")
  }
}
