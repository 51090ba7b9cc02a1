/// Changes JSON text in place, one value, member or element at a time, in the text's own
/// ``JSONTextStyle``; every byte outside what an operation touches stays as it was.
///
/// After each change the text's ``JSONTextMap`` is brought up to date (moved, for a scalar replaced by a
/// scalar; read again otherwise), so paths always refer to the current text.
struct JSONTextEditor {
  /// Why an operation could not be done (the path is not there, or is not that kind of value).
  struct Missing: Error, Equatable {
    var path: JSONPath
  }

  private(set) var bytes: [UInt8]
  private(set) var map: JSONTextMap
  let style: JSONTextStyle

  init(bytes: [UInt8]) {
    self.bytes = bytes
    map = JSONTextMap(bytes)
    style = JSONTextStyle.of(bytes, map: map)
  }

  /// The bytes of the value at `path`.
  func text(at path: JSONPath) -> [UInt8]? {
    map.range(of: path).map { Array(bytes[$0]) }
  }

  /// The string at `path`, nil when it is not a string.
  func string(at path: JSONPath) -> String? {
    text(at: path).flatMap(CatalogTextEditor.string)
  }

  func exists(_ path: JSONPath) -> Bool { map.range(of: path) != nil }

  /// Replaces the value at `path` with `value`, or adds the member when the object at the path's
  /// parent lacks it (`template`: the key order to put it by, when the file has no object like it).
  mutating func set(_ path: JSONPath, to value: JSONText, template: [String] = []) throws(Missing) {
    if let node = map.node(at: path) {
      let range = map.nodes[node].start..<map.nodes[node].end
      let indent = Self.indentation(ofLineAt: range.lowerBound, in: bytes)
      let text = Array(laidOut(value, at: path).written(in: style, indent: indent).utf8)
      // A scalar over a scalar moves what follows and changes nothing else: no need to read the text again.
      if !value.isContainer, bytes[range.lowerBound] != UInt8(ascii: "{"), bytes[range.lowerBound] != UInt8(ascii: "[") {
        bytes.replaceSubrange(range, with: text)
        map.replacedScalar(node, with: text.count)
        return
      }
      replace(range, with: text)
      return
    }
    guard case .key(let key)? = path.components.last else { throw Missing(path: path) }
    try insertMember(key, value, into: JSONPath(Array(path.components.dropLast())), template: template)
  }

  /// Adds `key : value` to the object at `path`, where the object's key order puts it.
  mutating func insertMember(_ key: String, _ value: JSONText, into path: JSONPath, template: [String] = []) throws(Missing) {
    guard let object = map.range(of: path), bytes[object.lowerBound] == UInt8(ascii: "{") else { throw Missing(path: path) }
    let keys = map.keys(of: path)
    let indent = childIndentation(of: path, range: object)
    let member = Array((String(decoding: CatalogTextEditor.literal(key), as: UTF8.self) + style.colon
      + laidOut(value, at: path.appending(key)).written(in: style, indent: indent)).utf8)
    let template = map.keysOfObject(shapedLike: path, having: key) ?? template
    guard !keys.isEmpty else {
      let closing = Self.indentation(ofLineAt: object.lowerBound, in: bytes)
      replace((object.lowerBound + 1)..<(object.upperBound - 1), with: Array((style.newline + indent).utf8) + member + Array((style.newline + closing).utf8))
      return
    }
    if let before = keys.first(where: { follows($0, key, keys: keys, template: template) }), let start = map.keyStart(of: path.appending(before)) {
      replace(start..<start, with: member + Array(("," + style.newline + indent).utf8))
    } else if let last = keys.last, let end = map.range(of: path.appending(last))?.upperBound {
      replace(end..<end, with: Array(("," + style.newline + indent).utf8) + member)
    }
  }

  /// Adds `value` to the array at `path`, before element `index` (nil: at the end).
  mutating func insertElement(_ value: JSONText, into path: JSONPath, at index: Int? = nil) throws(Missing) {
    guard let array = map.range(of: path), bytes[array.lowerBound] == UInt8(ascii: "[") else { throw Missing(path: path) }
    let count = map.count(of: path)
    let indent = childIndentation(of: path, range: array)
    let element = Array(laidOut(value, at: path.appending(index ?? count)).written(in: style, indent: indent).utf8)
    if count == 0 {
      let closing = Self.indentation(ofLineAt: array.lowerBound, in: bytes)
      replace((array.lowerBound + 1)..<(array.upperBound - 1), with: Array((style.newline + indent).utf8) + element + Array((style.newline + closing).utf8))
    } else if let index, index < count, let start = map.range(of: path.appending(index))?.lowerBound {
      replace(start..<start, with: element + Array(("," + style.newline + indent).utf8))
    } else if let end = map.range(of: path.appending(count - 1))?.upperBound {
      replace(end..<end, with: Array(("," + style.newline + indent).utf8) + element)
    }
  }

  /// Adds `bytes` (a value's text as the file had it elsewhere, at the same depth) to the array at `path`.
  mutating func insertElementText(_ text: [UInt8], into path: JSONPath) throws(Missing) {
    guard let array = map.range(of: path), bytes[array.lowerBound] == UInt8(ascii: "[") else { throw Missing(path: path) }
    let count = map.count(of: path)
    let indent = childIndentation(of: path, range: array)
    if count == 0 {
      let closing = Self.indentation(ofLineAt: array.lowerBound, in: bytes)
      replace((array.lowerBound + 1)..<(array.upperBound - 1), with: Array((style.newline + indent).utf8) + text + Array((style.newline + closing).utf8))
    } else if let end = map.range(of: path.appending(count - 1))?.upperBound {
      replace(end..<end, with: Array(("," + style.newline + indent).utf8) + text)
    }
  }

  /// Removes element `index` of the array at `path` with its comma and the space before it; an
  /// array left empty is written as the file writes empty arrays.
  mutating func removeElement(_ index: Int, of path: JSONPath) throws(Missing) {
    guard let array = map.range(of: path), let element = map.range(of: path.appending(index)) else { throw Missing(path: path.appending(index)) }
    let count = map.count(of: path)
    if count == 1 {
      let closing = Self.indentation(ofLineAt: array.lowerBound, in: bytes)
      let empty = Array(style.emptyArray(indent: closing).utf8)
      replace(array, with: empty)
    } else if index > 0, let previous = map.range(of: path.appending(index - 1)) {
      replace(previous.upperBound..<element.upperBound, with: [])
    } else if let next = map.range(of: path.appending(index + 1)) {
      replace(element.lowerBound..<next.lowerBound, with: [])
    }
  }

  /// Removes the member `key` of the object at `path` with its comma.
  mutating func removeMember(_ key: String, of path: JSONPath) throws(Missing) {
    guard let member = map.memberRange(key, of: path) else { throw Missing(path: path.appending(key)) }
    let keys = map.keys(of: path)
    guard let position = keys.firstIndex(of: key) else { throw Missing(path: path.appending(key)) }
    if keys.count == 1, let object = map.range(of: path) {
      replace((object.lowerBound + 1)..<(object.upperBound - 1), with: Array((style.newline + style.newline + Self.indentation(ofLineAt: object.lowerBound, in: bytes)).utf8))
    } else if position > 0, let previous = map.range(of: path.appending(keys[position - 1])) {
      replace(previous.upperBound..<member.upperBound, with: [])
    } else if let next = map.keyStart(of: path.appending(keys[position + 1])) {
      replace(member.lowerBound..<next, with: [])
    }
  }

  // MARK: - Layout

  /// `value` with every object's keys in the order the file gives objects in the same kind of place.
  func laidOut(_ value: JSONText, at path: JSONPath) -> JSONText {
    value.ordered(in: style, at: path) { map.keysOfObject(shapedLike: $0) }
  }

  /// Whether `existing` goes after a new `key`: by Xcode's order in a sorted file, else by
  /// `template` (a key the template lists later than `key`).
  private func follows(_ existing: String, _ key: String, keys: [String], template: [String]) -> Bool {
    if style.sortsKeys { return JSONTextStyle.xcodeOrder(key, existing) }
    guard let mine = template.firstIndex(of: key), let theirs = template.firstIndex(of: existing) else { return false }
    return theirs > mine
  }

  /// The indentation of the container's children: that of its first child's line, else one unit
  /// more than the container's own line.
  private func childIndentation(of path: JSONPath, range: Range<Int>) -> String {
    if let first = map.keys(of: path).first, let start = map.keyStart(of: path.appending(first)) {
      return Self.indentation(ofLineAt: start, in: bytes, onlyIfFirst: start)
    }
    if map.count(of: path) > 0, let start = map.range(of: path.appending(0))?.lowerBound {
      return Self.indentation(ofLineAt: start, in: bytes, onlyIfFirst: start)
    }
    return style.newline.isEmpty ? "" : Self.indentation(ofLineAt: range.lowerBound, in: bytes) + style.unit
  }

  /// The whitespace that starts the line `offset` is on (with `onlyIfFirst`: "" unless the
  /// byte at that offset is the first non-blank one of its line).
  static func indentation(ofLineAt offset: Int, in bytes: [UInt8], onlyIfFirst: Int? = nil) -> String {
    var start = offset
    while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
    var end = start
    while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
    if let first = onlyIfFirst, first != end { return "" }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  private mutating func replace(_ range: Range<Int>, with replacement: [UInt8]) {
    bytes.replaceSubrange(range, with: replacement)
    map = JSONTextMap(bytes)
  }
}
