import Foundation

/// A query parameter: sent as text, except ``bytes`` (binary format).
enum PostgreSQLValue: Sendable, Equatable {
  case text(String)
  case int(Int64)
  case double(Double)
  case bool(Bool)
  case bytes(Data)
  case null

  /// The parameter's text, or its bytes for the binary format; nil for SQL NULL.
  var wire: (bytes: [UInt8], isBinary: Bool)? {
    switch self {
    case .text(let text): (Array(text.utf8), false)
    case .int(let value): (Array(String(value).utf8), false)
    // Swift's description is the shortest text that reads back as the same double; float8 reads its `e` forms.
    case .double(let value): (Array("\(value)".utf8), false)
    case .bool(let value): (Array((value ? "t" : "f").utf8), false)
    case .bytes(let data): ([UInt8](data), true)
    case .null: nil
    }
  }
}
