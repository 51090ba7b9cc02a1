/// Where every value and member key of a JSON text is, by path (``JSONSourceLocator/textMap()``).
struct JSONTextMap {
  /// Each value's bytes, from its first byte to just past its last.
  let ranges: [JSONPath: Range<Int>]
  /// Each object member's key: the offset of its opening quote.
  let keyStarts: [JSONPath: Int]
  /// Each container's children in file order.
  private let children: [JSONPath: [JSONPath.Component]]

  init(ranges: [JSONPath: Range<Int>], keyStarts: [JSONPath: Int]) {
    self.ranges = ranges
    self.keyStarts = keyStarts
    var children: [JSONPath: [(offset: Int, component: JSONPath.Component)]] = [:]
    for (path, range) in ranges {
      guard let last = path.components.last else { continue }
      children[JSONPath(Array(path.components.dropLast())), default: []].append((keyStarts[path] ?? range.lowerBound, last))
    }
    self.children = children.mapValues { $0.sorted { $0.offset < $1.offset }.map(\.component) }
    // Objects by the kind of place they are in, first in the file first: what laying out a new
    // value asks for every object it writes.
    var shapes: [[String?]: [(offset: Int, path: JSONPath)]] = [:]
    for (path, components) in self.children where components.first.map({ if case .key = $0 { true } else { false } }) ?? false {
      shapes[Self.shape(of: path), default: []].append((ranges[path]?.lowerBound ?? 0, path))
    }
    self.shapes = shapes.mapValues { $0.sorted { $0.offset < $1.offset }.map(\.path) }
  }

  /// Objects (with at least one member) by ``shape(of:)``, in file order.
  private let shapes: [[String?]: [JSONPath]]

  /// A path's kind of place: its keys, with every index the same.
  static func shape(of path: JSONPath) -> [String?] {
    path.components.map { if case .key(let key) = $0 { key } else { nil } }
  }

  /// The keys of the object at `path`, in file order.
  func keys(of path: JSONPath) -> [String] {
    (children[path] ?? []).compactMap { if case .key(let key) = $0 { key } else { nil } }
  }

  /// How many elements the array at `path` has.
  func count(of path: JSONPath) -> Int {
    (children[path] ?? []).count
  }

  /// The bytes of the member `key` of the object at `path`, key to value, without the commas.
  func memberRange(_ key: String, of path: JSONPath) -> Range<Int>? {
    let member = path.appending(key)
    guard let value = ranges[member], let start = keyStarts[member] else { return nil }
    return start..<value.upperBound
  }

  /// The keys of the first object (in file order) in the same kind of place as `path` (the same
  /// keys, any indices) that has `key`, if given: how the file orders such an object's members.
  func keysOfObject(shapedLike path: JSONPath, having key: String? = nil) -> [String]? {
    for candidate in shapes[Self.shape(of: path)] ?? [] where candidate != path {
      let keys = self.keys(of: candidate)
      if key.map(keys.contains) ?? true { return keys }
    }
    return nil
  }

}
