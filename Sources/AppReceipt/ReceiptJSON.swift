import Foundation

/// A verifyReceipt answer as JSON values, encoded with `JSONEncoder`. Keys come in no particular
/// order (as Apple's): `JSONSerialization` with `.sortedKeys` spent half of a 1,000-entry answer in
/// its bridged, locale-aware key sort.
enum ReceiptJSON: Encodable, Equatable {
  case string(String)
  case int(Int)
  case bool(Bool)
  case array([ReceiptJSON])
  case object([String: ReceiptJSON])

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .string(let text):
      var container = encoder.singleValueContainer()
      try container.encode(text)
    case .int(let number):
      var container = encoder.singleValueContainer()
      try container.encode(number)
    case .bool(let flag):
      var container = encoder.singleValueContainer()
      try container.encode(flag)
    case .array(let items):
      var container = encoder.unkeyedContainer()
      for item in items { try container.encode(item) }
    case .object(let members):
      var container = encoder.container(keyedBy: Key.self)
      for (key, value) in members { try container.encode(value, forKey: Key(stringValue: key)) }
    }
  }

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

  /// The encoded bytes (`{"status":21009}` if encoding failed, which a tree of these values cannot).
  var data: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return (try? encoder.encode(self)) ?? Data("{\"status\":21009}".utf8)
  }
}
