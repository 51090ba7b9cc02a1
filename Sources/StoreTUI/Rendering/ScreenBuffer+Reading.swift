import Foundation

extension ScreenBuffer {
  /// One row of cells, comparable with `==` so a presenter can skip unchanged rows.
  public struct Row: Hashable, Sendable, RandomAccessCollection {
    fileprivate let storage: ArraySlice<Cell>

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> Cell { storage[storage.startIndex + position] }

    public static func == (lhs: Row, rhs: Row) -> Bool {
      // Cells with the same bytes are equal (a grapheme is a small string, kept inline): the
      // presenter compares every row of every frame, and most are the same (issue 35).
      let same = lhs.storage.count == rhs.storage.count
        && lhs.storage.withUnsafeBytes { left in
          rhs.storage.withUnsafeBytes { right in
            guard left.count == right.count, let a = left.baseAddress, let b = right.baseAddress else { return left.isEmpty && right.isEmpty }
            return memcmp(a, b, left.count) == 0
          }
        }
      return same || lhs.storage.elementsEqual(rhs.storage)
    }
    public func hash(into hasher: inout Hasher) {
      for cell in storage { hasher.combine(cell) }
    }

    /// The row's text with continuation cells skipped and trailing spaces trimmed.
    public var text: String {
      var line = ""
      for cell in storage { if let character = cell.character { line.append(character) } }
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// A maximal span of cells sharing one style.
  public struct Run: Hashable, Sendable {
    /// First column.
    public var x: Int
    /// Columns covered, counting both halves of wide characters.
    public var width: Int
    public var style: Style
    /// The characters of the span (continuation cells contribute nothing).
    public var text: String

    public init(x: Int, width: Int, style: Style, text: String) {
      self.x = x
      self.width = width
      self.style = style
      self.text = text
    }
  }

  /// Row `y`; an empty row outside the grid.
  public func row(_ y: Int) -> Row {
    guard y >= 0, y < size.height else { return Row(storage: []) }
    let start = y * size.width
    return Row(storage: cellStorage[start..<start + size.width])
  }

  /// Every row's text, trailing spaces trimmed, joined with newlines: what `tmux capture-pane -p`
  /// would show. Use it for snapshot tests.
  public var plainText: String {
    (0..<size.height).map { row($0).text }.joined(separator: "\n")
  }

  /// The style runs of row `y` between columns `from` and `to` (default: the whole row).
  ///
  /// A run never starts on a continuation cell unless the range starts there.
  public func runs(y: Int, from: Int = 0, to: Int? = nil) -> [Run] {
    let end = min(to ?? size.width, size.width)
    guard y >= 0, y < size.height, from < end else { return [] }
    var result: [Run] = []
    var current: Run?
    for x in max(0, from)..<end {
      let cell = self[x, y]
      if var run = current, run.style == cell.style {
        run.width += 1
        if let character = cell.character { run.text.append(character) }
        current = run
      } else {
        if let run = current { result.append(run) }
        current = Run(
          x: x, width: 1, style: cell.style, text: cell.character.map { String($0) } ?? "")
      }
    }
    if let run = current { result.append(run) }
    return result
  }
}
