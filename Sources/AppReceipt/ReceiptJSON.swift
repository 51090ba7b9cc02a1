import Foundation

/// A verifyReceipt answer as JSON values. Keys come in no particular order (as Apple's). Written
/// by hand into one byte buffer: `JSONEncoder` spent most of a 1,000-entry answer in its
/// containers and `JSONSerialization` with `.sortedKeys` in its bridged, locale-aware key sort.
enum ReceiptJSON: Equatable {
  case string(String)
  case int(Int)
  case bool(Bool)
  case array([ReceiptJSON])
  case object([String: ReceiptJSON])

  static func == (lhs: ReceiptJSON, rhs: ReceiptJSON) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.bool(let a), .bool(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a == b
    default: false
    }
  }

  /// The encoded bytes: UTF-8, strings escaped as `JSONEncoder` with `.withoutEscapingSlashes` does.
  var data: Data {
    var bytes: [UInt8] = []
    // Growing a 1,000-entry answer by doubling copied it a dozen times.
    bytes.reserveCapacity(estimatedSize)
    write(into: &bytes)
    return Data(bytes)
  }

  /// About the encoded size (exact but for escapes and long numbers).
  private var estimatedSize: Int {
    switch self {
    case .string(let text): text.utf8.count + 2
    case .int: 20
    case .bool: 5
    case .array(let items): items.reduce(2) { $0 + $1.estimatedSize + 1 }
    case .object(let members): members.reduce(2) { $0 + $1.key.utf8.count + $1.value.estimatedSize + 4 }
    }
  }

  private func write(into bytes: inout [UInt8]) {
    switch self {
    case .string(let text):
      Self.write(text, into: &bytes)
    case .int(let number):
      bytes.append(contentsOf: String(number).utf8)
    case .bool(let flag):
      bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    case .array(let items):
      bytes.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        item.write(into: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      var first = true
      for (key, value) in members {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        Self.write(key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        value.write(into: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  private static let hex = Array("0123456789abcdef".utf8)

  private static func write(_ text: String, into bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    // Almost every string (ids, dates, digits) needs no escape: copy it whole.
    let copied = text.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
      guard !buffer.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
      bytes.append(contentsOf: buffer)
      return true
    }
    if copied == true {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0..<0x20:
        bytes.append(contentsOf: Array("\\u00".utf8))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
