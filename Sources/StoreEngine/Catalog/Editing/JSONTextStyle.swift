/// How a JSON text is laid out, read from the text itself so what an editor adds looks like what
/// was there: the line ending, one level of indentation, the spelling of `:`, empty arrays, and
/// whether keys are sorted (as Xcode sorts them) or in an order of the author's.
struct JSONTextStyle: Equatable, Sendable {
  /// `"\n"`, `"\r\n"`, or `""` for a text on one line.
  var newline: String
  /// One level of indentation (`"  "` from Xcode, a tab, four spaces).
  var unit: String
  /// Between a key and its value (`" : "` from Xcode, `": "` from most other writers).
  var colon: String
  /// Whether an empty array is written with a blank line inside, as Xcode writes `[\n\n  ]`.
  var blankLineInEmptyArrays: Bool
  /// Whether every object's keys are in Xcode's order (so new keys are put in order too).
  var sortsKeys: Bool

  /// What the current Xcode writes.
  static let xcode = JSONTextStyle(newline: "\n", unit: "  ", colon: " : ", blankLineInEmptyArrays: true, sortsKeys: true)

  func emptyArray(indent: String) -> String {
    blankLineInEmptyArrays && !newline.isEmpty ? "[" + newline + newline + indent + "]" : "[]"
  }

  /// Xcode's key order: case-insensitive (`_storefront` before `_storeKitErrors`), then by code.
  static func xcodeOrder(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.lowercased()
    let right = rhs.lowercased()
    return left == right ? lhs < rhs : left < right
  }

  /// The style of `bytes` (Xcode's where the text does not say).
  static func of(_ bytes: [UInt8], map: JSONTextMap) -> JSONTextStyle {
    var style = JSONTextStyle.xcode
    // A text is on one line when no line break is inside its top-level value (a trailing one does not count).
    let root = map.range(of: .root) ?? 0..<bytes.count
    guard let lineFeed = bytes[root].firstIndex(of: 0x0A) else {
      style.newline = ""
      style.unit = ""
      style.colon = colonOf(bytes, map: map) ?? ":"
      style.sortsKeys = keysAreSorted(map)
      style.blankLineInEmptyArrays = false
      return style
    }
    style.newline = lineFeed > 0 && bytes[lineFeed - 1] == 0x0D ? "\r\n" : "\n"
    if let first = map.keys(of: .root).first, let start = map.keyStart(of: JSONPath.root.appending(first)) {
      let indent = JSONTextEditor.indentation(ofLineAt: start, in: bytes)
      if !indent.isEmpty { style.unit = indent }
    }
    style.colon = colonOf(bytes, map: map) ?? style.colon
    style.sortsKeys = keysAreSorted(map)
    // The first empty array says how the file writes them; with none, Xcode's way.
    if let empty = map.nodes.first(where: { $0.kind == UInt8(ascii: "[") && $0.children.isEmpty }) {
      style.blankLineInEmptyArrays = bytes[empty.start..<empty.end].filter { $0 == 0x0A }.count >= 2
    }
    return style
  }

  private static func colonOf(_ bytes: [UInt8], map: JSONTextMap) -> String? {
    guard let first = map.keys(of: .root).first, let start = map.keyStart(of: JSONPath.root.appending(first)),
      let value = map.range(of: JSONPath.root.appending(first))
    else { return nil }
    // The key's closing quote is the last quote before the colon.
    var index = value.lowerBound - 1
    while index > start, bytes[index] != UInt8(ascii: "\"") { index -= 1 }
    return String(decoding: bytes[(index + 1)..<value.lowerBound], as: UTF8.self)
  }

  /// Whether every object with two or more keys has them in Xcode's order.
  private static func keysAreSorted(_ map: JSONTextMap) -> Bool {
    for index in map.nodes.indices where map.nodes[index].children.count >= 2 {
      let keys = map.keys(ofNode: index)
      for (lhs, rhs) in zip(keys, keys.dropFirst()) where !xcodeOrder(lhs, rhs) { return false }
    }
    return true
  }
}
