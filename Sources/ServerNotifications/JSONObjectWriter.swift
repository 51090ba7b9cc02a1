import Foundation

/// Writes one JSON object's bytes as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`
/// writes them, for a notification's payload: the encoder's boxing was a fifth of the deliverer's
/// time per notification. Keys must be added in sorted order; nil values are left out, as the
/// synthesized `Encodable` leaves them out.
struct JSONObjectWriter {
  private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]
  private var empty = true

  init() { bytes.reserveCapacity(4_096) }

  /// `"key":"value"`, escaped as JSONEncoder escapes (quote, backslash, control characters).
  mutating func add(_ key: String, _ value: String?) {
    guard let value else { return }
    addKey(key)
    Self.appendString(value, to: &bytes)
  }

  mutating func add(_ key: String, _ value: Int64?) {
    guard let value else { return }
    addKey(key)
    bytes.append(contentsOf: String(value).utf8)
  }

  mutating func add(_ key: String, _ value: [String]) {
    addKey(key)
    bytes.append(UInt8(ascii: "["))
    for (index, element) in value.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      Self.appendString(element, to: &bytes)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// A nested object, already closed.
  mutating func add(_ key: String, _ object: JSONObjectWriter?) {
    guard let object else { return }
    addKey(key)
    bytes.append(contentsOf: object.closed)
  }

  /// The object's bytes with its closing brace.
  var closed: [UInt8] { bytes + [UInt8(ascii: "}")] }

  private mutating func addKey(_ key: String) {
    if !empty { bytes.append(UInt8(ascii: ",")) }
    empty = false
    Self.appendString(key, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func appendString(_ string: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x00..<0x20:
        bytes.append(contentsOf: Array("\\u00".utf8))
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
