/// A request-body member decoded without coercion, so a check can tell `true` from `1` and `"1"`.
enum JSONScalar: Decodable, Equatable {
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case other

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let integer = try? container.decode(Int64.self) {
      self = .integer(integer)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else {
      self = .other
    }
  }

  /// An integer, also written as a whole `Double` (Swift's client writes dates through one).
  var integer: Int64? {
    switch self {
    case .integer(let value): value
    case .number(let value) where value == value.rounded() && abs(value) < 9e18: Int64(value)
    default: nil
    }
  }
}
