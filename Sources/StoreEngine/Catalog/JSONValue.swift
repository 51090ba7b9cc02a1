import Foundation

/// One JSON value of a `.storekit` file, as the catalog walker reads it.
///
/// Files are decoded with Foundation's `JSONDecoder` into this enum rather than with
/// `JSONSerialization` into `Any`: decoding a 10.5 MB catalog peaked at 195 MB with the Foundation
/// object tree and peaks at 68 MB with this one, and reading it needs no bridging casts.
enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  var objectValue: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }

  var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// "a string", "the number 3", "true", … for messages about a value of the wrong type.
  var kind: String {
    switch self {
    case .null: return "null"
    case .bool(let flag): return "\(flag)"
    case .number(let number): return "the number \(Self.describe(number))"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// `3` rather than `3.0` for whole numbers, as the file most likely wrote them.
  static func describe(_ number: Double) -> String {
    if let whole = Int(exactly: number) { return "\(whole)" }
    return "\(number)"
  }
}

extension JSONValue: Decodable {
  /// Deeper values are left to `JSONSerialization`: each level here costs a few Decoder frames of
  /// stack, and a file nested 500 deep would overflow a thread's 512 KB stack. A `.storekit` file
  /// nests about 12 deep.
  static let maximumDepth = 64

  struct TooDeep: Error {}

  /// Tries the kinds in the order a `.storekit` file uses them most (strings, then objects), since
  /// each wrong guess costs a thrown `DecodingError`.
  init(from decoder: any Decoder) throws {
    // Computing the coding path is not free, but this generic path is only for members the
    // walker does not read and values of an unexpected kind.
    guard decoder.codingPath.count <= Self.maximumDepth else { throw TooDeep() }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let text = try? single.decode(String.self) {
      self = .string(text)
    } else if let members = try? decoder.container(keyedBy: JSONKey.self) {
      // `allKeys` builds and casts a fresh array on every call: ask once.
      let keys = members.allKeys
      var object: [String: JSONValue] = [:]
      object.reserveCapacity(keys.count)
      for key in keys {
        object[key.stringValue] = try members.decode(JSONValue.self, forKey: key)
      }
      self = .object(object)
    } else if var elements = try? decoder.unkeyedContainer() {
      var array: [JSONValue] = []
      if let count = elements.count { array.reserveCapacity(count) }
      while !elements.isAtEnd { array.append(try elements.decode(JSONValue.self)) }
      self = .array(array)
    } else if let flag = try? single.decode(Bool.self) {
      self = .bool(flag)
    } else {
      self = .number(try single.decode(Double.self))
    }
  }
}

extension JSONValue {
  /// Converts what `JSONSerialization` produced: the fallback for the rare file `JSONDecoder`
  /// refuses but `JSONSerialization` reads, so both decoders accept the same files.
  init(foundation value: Any) {
    switch value {
    case let text as String:
      self = .string(text)
    case let members as [String: Any]:
      self = .object(members.mapValues(JSONValue.init(foundation:)))
    case let elements as [Any]:
      self = .array(elements.map(JSONValue.init(foundation:)))
    case let number as NSNumber:
      // JSONSerialization marks true/false with the ObjC type code for BOOL.
      self = String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
    default:
      self = .null
    }
  }
}
