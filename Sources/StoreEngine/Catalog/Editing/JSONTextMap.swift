/// Where every value and member key of a JSON text is: a tree of nodes in file order, found by
/// ``JSONPath``, built in one pass over the bytes.
///
/// Expects text that Foundation accepted (the editor edits only files that load). Of duplicate
/// keys the first wins, as in `JSONDecoder`.
struct JSONTextMap {
  struct Node {
    /// The value's bytes: from its first byte to just past its last.
    var start: Int
    var end: Int
    /// For an object member: its key and the offset of the key's opening quote.
    var key: String?
    var keyStart: Int
    var parent: Int
    var children: [Int] = []
    var kind: UInt8
  }

  private(set) var nodes: [Node] = []

  init(_ bytes: [UInt8]) {
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    nodes.reserveCapacity(bytes.count / 16)
    scan(bytes, at: &index, parent: -1, key: nil, keyStart: -1)
  }

  // MARK: - Finding

  /// The node at `path`.
  func node(at path: JSONPath) -> Int? {
    guard !nodes.isEmpty else { return nil }
    var current = 0
    for component in path.components {
      let node = nodes[current]
      switch component {
      case .index(let index):
        guard node.kind == UInt8(ascii: "["), node.children.indices.contains(index) else { return nil }
        current = node.children[index]
      case .key(let key):
        guard node.kind == UInt8(ascii: "{"), let child = node.children.first(where: { nodes[$0].key == key }) else { return nil }
        current = child
      }
    }
    return current
  }

  /// The bytes of the value at `path`.
  func range(of path: JSONPath) -> Range<Int>? {
    node(at: path).map { nodes[$0].start..<nodes[$0].end }
  }

  /// The offset of the opening quote of the key of the member at `path`.
  func keyStart(of path: JSONPath) -> Int? {
    node(at: path).flatMap { nodes[$0].keyStart >= 0 ? nodes[$0].keyStart : nil }
  }

  /// The keys of the object at `path`, in file order.
  func keys(of path: JSONPath) -> [String] {
    node(at: path).map(keys(ofNode:)) ?? []
  }

  func keys(ofNode node: Int) -> [String] {
    nodes[node].kind == UInt8(ascii: "{") ? nodes[node].children.compactMap { nodes[$0].key } : []
  }

  /// How many elements (or members) the container at `path` has.
  func count(of path: JSONPath) -> Int {
    node(at: path).map { nodes[$0].children.count } ?? 0
  }

  /// The bytes of the member `key` of the object at `path`, key to value, without the commas.
  func memberRange(_ key: String, of path: JSONPath) -> Range<Int>? {
    guard let node = node(at: path.appending(key)), nodes[node].keyStart >= 0 else { return nil }
    return nodes[node].keyStart..<nodes[node].end
  }

  /// The path of `node`.
  func path(of node: Int) -> JSONPath {
    var components: [JSONPath.Component] = []
    var current = node
    while nodes[current].parent >= 0 {
      let parent = nodes[current].parent
      if let key = nodes[current].key {
        components.append(.key(key))
      } else {
        components.append(.index(nodes[parent].children.firstIndex(of: current) ?? 0))
      }
      current = parent
    }
    return JSONPath(components.reversed())
  }

  /// Every value's bytes, keyed by its path.
  func allRanges() -> [JSONPath: Range<Int>] {
    guard !nodes.isEmpty else { return [:] }
    var ranges: [JSONPath: Range<Int>] = [:]
    ranges.reserveCapacity(nodes.count)
    var stack: [(node: Int, path: [JSONPath.Component])] = [(0, [])]
    while let (node, path) = stack.popLast() {
      ranges[JSONPath(path)] = nodes[node].start..<nodes[node].end
      for (index, child) in nodes[node].children.enumerated() {
        stack.append((child, path + [nodes[child].key.map(JSONPath.Component.key) ?? .index(index)]))
      }
    }
    return ranges
  }

  /// Every member named `key` under `path` (all of the text for the root), in file order.
  func members(named key: String, under path: JSONPath = .root) -> [(path: JSONPath, range: Range<Int>)] {
    guard let top = node(at: path) else { return [] }
    var found: [(JSONPath, Range<Int>)] = []
    var stack = [top]
    while let next = stack.popLast() {
      if nodes[next].key == key, next != top { found.append((self.path(of: next), nodes[next].start..<nodes[next].end)) }
      stack += nodes[next].children.reversed()
    }
    return found
  }

  /// The keys of the first object (in file order) in the same kind of place as `path` (the same
  /// keys, any indices) that has `key`, if given: how the file orders such an object's members.
  func keysOfObject(shapedLike path: JSONPath, having key: String? = nil) -> [String]? {
    guard !nodes.isEmpty else { return nil }
    var level = [0]
    for component in path.components {
      var next: [Int] = []
      for node in level {
        switch component {
        case .index where nodes[node].kind == UInt8(ascii: "["): next += nodes[node].children
        case .key(let name) where nodes[node].kind == UInt8(ascii: "{"):
          if let child = nodes[node].children.first(where: { nodes[$0].key == name }) { next.append(child) }
        default: break
        }
      }
      level = next
    }
    let own = node(at: path)
    for candidate in level where candidate != own && nodes[candidate].kind == UInt8(ascii: "{") {
      let keys = keys(ofNode: candidate)
      if !keys.isEmpty, key.map(keys.contains) ?? true { return keys }
    }
    return nil
  }

  // MARK: - Changing

  /// After the scalar value of `node` was replaced by `count` bytes of another scalar: the node
  /// there keeps its place and everything after it moves, without reading the text again.
  mutating func replacedScalar(_ node: Int, with count: Int) {
    let old = nodes[node].end
    let delta = count - (old - nodes[node].start)
    nodes[node].end += delta
    for index in nodes.indices where index != node {
      if nodes[index].start >= old { nodes[index].start += delta }
      if nodes[index].keyStart >= old { nodes[index].keyStart += delta }
      if nodes[index].end >= old { nodes[index].end += delta }
    }
  }

  // MARK: - Scanning

  private mutating func scan(_ bytes: [UInt8], at index: inout Int, parent: Int, key: String?, keyStart: Int) {
    Self.skipWhitespace(bytes, &index)
    guard index < bytes.count else { return }
    let me = nodes.count
    nodes.append(Node(start: index, end: index, key: key, keyStart: keyStart, parent: parent, kind: bytes[index]))
    if parent >= 0 { nodes[parent].children.append(me) }
    defer { nodes[me].end = index }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var seen: Set<String> = []
      while index < bytes.count {
        Self.skipWhitespace(bytes, &index)
        guard index < bytes.count else { return }
        if bytes[index] == UInt8(ascii: "}") {
          index += 1
          return
        }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "\"") else { return }
        let start = index
        Self.skipString(bytes, &index)
        let name = Self.decodeKey(bytes[start..<index])
        Self.skipWhitespace(bytes, &index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return }
        index += 1
        if seen.insert(name).inserted {
          scan(bytes, at: &index, parent: me, key: name, keyStart: start)
        } else {
          // A later duplicate is skipped as JSONDecoder ignores it.
          let count = nodes.count
          scan(bytes, at: &index, parent: me, key: name, keyStart: start)
          nodes[me].children.removeAll { $0 >= count }
        }
      }
    case UInt8(ascii: "["):
      index += 1
      while index < bytes.count {
        Self.skipWhitespace(bytes, &index)
        guard index < bytes.count else { return }
        if bytes[index] == UInt8(ascii: "]") {
          index += 1
          return
        }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        let before = index
        scan(bytes, at: &index, parent: me, key: nil, keyStart: -1)
        if index == before { return }
      }
    case UInt8(ascii: "\""):
      Self.skipString(bytes, &index)
    default:
      while index < bytes.count, !JSONSourceLocator.isDelimiter(bytes[index]) { index += 1 }
    }
  }

  private static func skipString(_ bytes: [UInt8], _ index: inout Int) {
    index += 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""):
        index += 1
        return
      default: index += 1
      }
    }
  }

  private static func skipWhitespace(_ bytes: [UInt8], _ index: inout Int) {
    while index < bytes.count, JSONSourceLocator.isWhitespace(bytes[index]) { index += 1 }
  }

  private static func decodeKey(_ slice: ArraySlice<UInt8>) -> String {
    let inner = slice.dropFirst().dropLast()
    if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
    return CatalogTextEditor.string(Array(slice)) ?? String(decoding: inner, as: UTF8.self)
  }
}
