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
    var offsets: [JSONPath: Int] = [:]
    var index = 0
    scanValue(at: &index, path: [], into: &offsets)
    return offsets
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

  /// The bytes of every value (from its first byte to just past its last), keyed by its path; the
  /// first of duplicate keys wins. An editor replaces a value's bytes and leaves the rest alone.
  func valueRanges() -> [JSONPath: Range<Int>] {
    var offsets: [JSONPath: Int] = [:]
    var ends: [JSONPath: Int] = [:]
    // A byte order mark is not JSON; Foundation skips it, and so does this.
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    scanValue(at: &index, path: [], into: &offsets, ends: &ends)
    var ranges: [JSONPath: Range<Int>] = [:]
    for (path, start) in offsets { if let end = ends[path], end >= start { ranges[path] = start..<end } }
    return ranges
  }

  private func scanValue(at index: inout Int, path: [JSONPath.Component], into offsets: inout [JSONPath: Int]) {
    var ends: [JSONPath: Int] = [:]
    scanValue(at: &index, path: path, into: &offsets, ends: &ends)
  }

  private func scanValue(
    at index: inout Int, path: [JSONPath.Component], into offsets: inout [JSONPath: Int], ends: inout [JSONPath: Int]
  ) {
    skipWhitespace(&index)
    guard index < bytes.count else { return }
    let key = JSONPath(path)
    let first = offsets[key] == nil
    if first { offsets[key] = index }
    defer { if first { ends[key] = index } }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      while index < bytes.count {
        skipWhitespace(&index)
        guard index < bytes.count else { return }
        if bytes[index] == UInt8(ascii: "}") {
          index += 1
          return
        }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "\"") else { return }
        let keyStart = index
        skipString(&index)
        let key = decodeKey(keyStart..<index)
        skipWhitespace(&index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return }
        index += 1
        scanValue(at: &index, path: path + [.key(key)], into: &offsets, ends: &ends)
      }
    case UInt8(ascii: "["):
      index += 1
      var element = 0
      while index < bytes.count {
        skipWhitespace(&index)
        guard index < bytes.count else { return }
        if bytes[index] == UInt8(ascii: "]") {
          index += 1
          return
        }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        let before = index
        scanValue(at: &index, path: path + [.index(element)], into: &offsets, ends: &ends)
        element += 1
        if index == before { return }
      }
    case UInt8(ascii: "\""):
      skipString(&index)
    default:
      while index < bytes.count, !Self.isDelimiter(bytes[index]) { index += 1 }
    }
  }

  /// Moves past a string that starts at `index` (on its opening quote).
  private func skipString(_ index: inout Int) {
    index += 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""):
        index += 1
        return
      default: index += 1
      }
    }
  }

  private func decodeKey(_ range: Range<Int>) -> String {
    let slice = bytes[range]
    let inner = slice.dropFirst().dropLast()
    if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
    // Escaped keys are rare; let Foundation decode them rather than decoding escapes here.
    let decoded = try? JSONSerialization.jsonObject(with: Data(slice), options: [.fragmentsAllowed])
    return decoded as? String ?? String(decoding: inner, as: UTF8.self)
  }

  private func skipWhitespace(_ index: inout Int) {
    while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
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
