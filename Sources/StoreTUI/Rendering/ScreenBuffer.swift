/// A grid of cells: what one frame of the terminal shows.
///
/// Pure value type, so `render(state, size)` can be tested by comparing ``plainText`` with a
/// literal. Writes are clipped to the grid (and to an optional clip rectangle) and keep wide
/// characters whole: overwriting either half of a wide character blanks the other half, and a wide
/// character that does not fit is drawn as a space, so later columns never shift.
public struct ScreenBuffer: Hashable, Sendable {
  public let size: Size
  /// Row-major cells; internal so the reading helpers can slice rows without copying.
  private(set) var cellStorage: [Cell]
  /// The cell the buffer was created with, and which rows still hold nothing else: filling such a
  /// row with that same cell (a table row over a fresh frame) changes nothing and is skipped.
  /// Not part of the value: equality and hashing look at `size` and `cellStorage` only.
  private let initialFill: Cell
  private var untouchedRows: [Bool]

  /// A buffer of `size` filled with `fill`.
  public init(size: Size, fill: Cell = .blank) {
    let clamped = Size(width: max(0, size.width), height: max(0, size.height))
    self.size = clamped
    self.cellStorage = Array(repeating: fill, count: clamped.width * clamped.height)
    self.initialFill = fill
    self.untouchedRows = Array(repeating: true, count: clamped.height)
  }

  /// Same size and same cells (styles included), however they were drawn.
  public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
    lhs.size == rhs.size && lhs.cellStorage == rhs.cellStorage
  }

  /// Hashes what ``==`` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(size)
    hasher.combine(cellStorage)
  }

  /// The whole grid as a rectangle.
  public var bounds: Rect { Rect(size: size) }

  /// The cell at column `x`, row `y`; ``Cell/blank`` outside the grid.
  public subscript(x: Int, y: Int) -> Cell {
    guard bounds.contains(x: x, y: y) else { return .blank }
    return cellStorage[y * size.width + x]
  }

  // MARK: Writing

  /// Draws one character at (`x`, `y`).
  ///
  /// - Parameter clip: cells outside this rectangle (and outside the grid) are left alone.
  /// - Returns: the columns the character advances (0, 1 or 2), whether or not it was clipped,
  ///   so callers walking a string stay aligned.
  @discardableResult
  public mutating func put(
    _ character: Character, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil
  ) -> Int {
    let width = DisplayWidth.of(character)
    guard width > 0 else { return 0 }  // controls and stray combining marks draw nothing
    let area = clip.map { $0.intersection(bounds) } ?? bounds
    guard y >= area.minY, y < area.maxY else { return width }
    if width == 1 {
      if x >= area.minX, x < area.maxX { set(Cell(character, style: style), x: x, y: y) }
      return 1
    }
    let leadInside = x >= area.minX && x < area.maxX
    let trailInside = x + 1 >= area.minX && x + 1 < area.maxX
    switch (leadInside, trailInside) {
    case (true, true):
      breakWideCharacter(x: x + 1, y: y)
      set(Cell(character, style: style), x: x, y: y)
      cellStorage[y * size.width + x + 1] = Cell(nil, style: style)  // same row: `set` marked it
    case (true, false):
      set(Cell(" ", style: style), x: x, y: y)
    case (false, true):
      set(Cell(" ", style: style), x: x + 1, y: y)
    case (false, false):
      break
    }
    return 2
  }

  /// Draws `text` from (`x`, `y`) on one row without truncation marks; see ``Canvas`` for
  /// ellipsis truncation.
  ///
  /// - Returns: the column after the last character.
  @discardableResult
  public mutating func write(
    _ text: some StringProtocol, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil
  ) -> Int {
    if let count = ASCIIText.printableCount(text.utf8) {
      return write(printableASCII: text, count: count, x: x, y: y, style: style, clip: clip)
    }
    let limit = (clip.map { $0.intersection(bounds) } ?? bounds).maxX
    var column = x
    for character in text {
      if column >= limit { break }
      column += put(character, x: column, y: y, style: style, clip: clip)
    }
    return column
  }

  /// Fills `rect` (clipped to the grid) with `character`, which should be one cell wide.
  public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
    let area = rect.intersection(bounds)
    guard !area.isEmpty else { return }
    guard DisplayWidth.of(character) == 1 else {
      for y in area.minY..<area.maxY {
        for x in area.minX..<area.maxX { put(character, x: x, y: y, style: style, clip: area) }
      }
      return
    }
    // One-cell characters: only the edge cells can split a wide character that reaches outside
    // the area, so the inside is stored directly.
    let cell = Cell(character, style: style)
    let width = size.width
    let isInitialFill = cell == initialFill
    for y in area.minY..<area.maxY {
      if isInitialFill && untouchedRows[y] { continue }
      breakWideCharacters(y: y, from: area.minX, to: area.maxX)
      let row = y * width
      cellStorage.withUnsafeMutableBufferPointer { cells in
        UnsafeMutableBufferPointer(rebasing: cells[(row + area.minX)..<(row + area.maxX)]).update(repeating: cell)
      }
    }
  }

  /// ``write(_:x:y:style:clip:)`` for text that is all printable ASCII, `count` bytes (as
  /// ``ASCIIText/printableCount(_:)`` found): the same cells, stored as one run instead of grapheme
  /// by grapheme.
  @discardableResult
  mutating func write(
    printableASCII text: some StringProtocol, count: Int, x: Int, y: Int, style: Style, clip: Rect?
  ) -> Int {
    let area = clip.map { $0.intersection(bounds) } ?? bounds
    let end = x + count
    guard x < area.maxX else { return x }
    guard y >= area.minY, y < area.maxY else { return min(end, area.maxX) }
    let from = max(x, area.minX)
    let to = min(end, area.maxX)
    guard from < to else { return to }
    breakWideCharacters(y: y, from: from, to: to)
    let start = y * size.width + from
    let skip = from - x
    let characters = ASCIIText.characters
    let store = { (bytes: UnsafeBufferPointer<UInt8>, cells: inout [Cell]) in
      cells.withUnsafeMutableBufferPointer { cells in
        // Bounded by the bytes too, so a wrong `count` cannot read past the text.
        for offset in 0..<max(0, min(to - from, bytes.count - skip)) {
          cells[start + offset] = Cell(characters[Int(bytes[skip + offset])], style: style)
        }
      }
    }
    if text.utf8.withContiguousStorageIfAvailable({ store($0, &cellStorage) }) == nil {
      Array(text.utf8).withUnsafeBufferPointer { store($0, &cellStorage) }
    }
    return to
  }

  /// Before one-cell characters are stored in columns `from..<to` of row `y`: blanks the outside
  /// half of any wide character cut by either end (inner cells are all overwritten anyway).
  private mutating func breakWideCharacters(y: Int, from: Int, to: Int) {
    breakWideCharacter(x: from, y: y)
    if to - 1 > from { breakWideCharacter(x: to - 1, y: y) }
  }

  /// Changes the style of the cells in `rect` without touching their characters (highlights).
  public mutating func applyStyle(_ style: Style, to rect: Rect) {
    let area = rect.intersection(bounds)
    guard !area.isEmpty else { return }
    for y in area.minY..<area.maxY {
      untouchedRows[y] = false
      for x in area.minX..<area.maxX { cellStorage[y * size.width + x].style = style }
    }
  }

  /// Stores a cell, first blanking the other half of any wide character it overlaps.
  private mutating func set(_ cell: Cell, x: Int, y: Int) {
    untouchedRows[y] = false
    breakWideCharacter(x: x, y: y)
    cellStorage[y * size.width + x] = cell
  }

  /// If (`x`, `y`) is half of a wide character, turns that character into spaces.
  private mutating func breakWideCharacter(x: Int, y: Int) {
    untouchedRows[y] = false
    let index = y * size.width + x
    if cellStorage[index].isContinuation {
      cellStorage[index].character = " "
      if x > 0 { cellStorage[index - 1].character = " " }
    } else if x + 1 < size.width, cellStorage[index + 1].isContinuation {
      cellStorage[index + 1].character = " "
    }
  }
}
