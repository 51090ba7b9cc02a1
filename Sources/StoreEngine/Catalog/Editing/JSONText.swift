/// A JSON value an editor writes into a file, its members in the order they are written.
///
/// Numbers are kept as the text to write (`"1"`, `"0.5"`), so nothing is re-spelled.
indirect enum JSONText: Equatable, Sendable {
  case object([Member])
  case array([JSONText])
  case string(String)
  case number(String)
  case bool(Bool)
  case null

  struct Member: Equatable, Sendable {
    var key: String
    var value: JSONText
    init(_ key: String, _ value: JSONText) {
      self.key = key
      self.value = value
    }
  }

  /// The text of this value in `style`, its first line at the cursor and the following ones
  /// indented from `indent` (the indentation of the line the value starts on).
  func written(in style: JSONTextStyle, indent: String) -> String {
    switch self {
    case .string(let value): return String(decoding: CatalogTextEditor.literal(value), as: UTF8.self)
    case .number(let text): return text
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .array(let elements):
      guard !elements.isEmpty else { return style.emptyArray(indent: indent) }
      let inner = indent + style.unit
      let body = elements.map { style.newline + inner + $0.written(in: style, indent: inner) }
      return "[" + body.joined(separator: ",") + style.newline + indent + "]"
    case .object(let members):
      guard !members.isEmpty else { return "{" + style.newline + style.newline + indent + "}" }
      let inner = indent + style.unit
      let body = members.map { member in
        style.newline + inner + String(decoding: CatalogTextEditor.literal(member.key), as: UTF8.self) + style.colon
          + member.value.written(in: style, indent: inner)
      }
      return "{" + body.joined(separator: ",") + style.newline + indent + "}"
    }
  }

  /// The members of every object ordered as `style` orders keys: sorted as Xcode sorts them, or
  /// in the order `template` gives for the object's place (`path`: where the value goes; the keys
  /// of an object the file already has in the same kind of place), the others after them.
  func ordered(in style: JSONTextStyle, at path: JSONPath, template: (JSONPath) -> [String]?) -> JSONText {
    switch self {
    case .object(let members):
      let children = members.map { Member($0.key, $0.value.ordered(in: style, at: path.appending($0.key), template: template)) }
      if style.sortsKeys { return .object(children.sorted { JSONTextStyle.xcodeOrder($0.key, $1.key) }) }
      guard let order = template(path), !order.isEmpty else { return .object(children) }
      let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
      return .object(children.enumerated().sorted { lhs, rhs in
        (rank[lhs.element.key] ?? order.count + lhs.offset, lhs.offset) < (rank[rhs.element.key] ?? order.count + rhs.offset, rhs.offset)
      }.map(\.element))
    case .array(let elements):
      return .array(elements.enumerated().map { $1.ordered(in: style, at: path.appending($0), template: template) })
    default:
      return self
    }
  }

  var isContainer: Bool {
    switch self {
    case .object, .array: true
    default: false
    }
  }

  /// The keys of an object value.
  var keys: [String] {
    if case .object(let members) = self { members.map(\.key) } else { [] }
  }
}
