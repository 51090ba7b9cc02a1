import StoreEngine

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

  /// A buffer of `size` filled with `fill`.
  public init(size: Size, fill: Cell = .blank) {
    let clamped = Size(width: max(0, size.width), height: max(0, size.height))
    self.size = clamped
    self.cellStorage = Array(repeating: fill, count: clamped.width * clamped.height)
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
      cellStorage[y * size.width + x + 1] = Cell(nil, style: style)
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
    for y in area.minY..<area.maxY {
      set(cell, x: area.minX, y: y)
      if area.width > 1 { set(cell, x: area.maxX - 1, y: y) }
      let row = y * size.width
      for x in (area.minX + 1)..<max(area.minX + 1, area.maxX - 1) { cellStorage[row + x] = cell }
    }
  }

  /// Changes the style of the cells in `rect` without touching their characters (highlights).
  public mutating func applyStyle(_ style: Style, to rect: Rect) {
    let area = rect.intersection(bounds)
    guard !area.isEmpty else { return }
    for y in area.minY..<area.maxY {
      for x in area.minX..<area.maxX { cellStorage[y * size.width + x].style = style }
    }
  }

  /// Stores a cell, first blanking the other half of any wide character it overlaps.
  private mutating func set(_ cell: Cell, x: Int, y: Int) {
    breakWideCharacter(x: x, y: y)
    cellStorage[y * size.width + x] = cell
  }

  /// If (`x`, `y`) is half of a wide character, turns that character into spaces.
  private mutating func breakWideCharacter(x: Int, y: Int) {
    let index = y * size.width + x
    if cellStorage[index].isContinuation {
      cellStorage[index].character = " "
      if x > 0 { cellStorage[index - 1].character = " " }
    } else if x + 1 < size.width, cellStorage[index + 1].isContinuation {
      cellStorage[index + 1].character = " "
    }
  }
}
