/// Column sizing and aligned drawing of table rows by display width.
///
/// Widths are in terminal cells, so rows with Korean, Japanese, Chinese or emoji text line up with
/// ASCII rows: every column starts at the same display column on every row, and text that does
/// not fit is cut with `…` without splitting a wide character.
///
/// ```swift
/// let table = TableLayout(columns: [
///   TableColumn("Product", width: .flexible(min: 10)),
///   TableColumn("Price", width: .fit(min: 5, max: 12), alignment: .right),
///   TableColumn("", width: .fixed(Button.width("Buy"))),
/// ])
/// let widths = table.columnWidths(totalWidth: canvas.size.width, rows: visibleCells)
/// table.drawHeader(in: &canvas, y: 0, widths: widths, style: .bold)
/// ```
public struct TableLayout: Hashable, Sendable {
  public var columns: [TableColumn]
  /// Blank cells between adjacent columns.
  public var spacing: Int

  public init(columns: [TableColumn], spacing: Int = 2) {
    self.columns = columns
    self.spacing = max(0, spacing)
  }

  /// Column widths for a table `totalWidth` cells wide.
  ///
  /// Fixed and fit columns get their width first; flexible columns share the rest by weight.
  /// When the table is too narrow, fit columns shrink to their minimum (rightmost first), then
  /// flexible columns shrink below theirs, down to 0; what still does not fit is clipped at the
  /// right edge when drawn.
  ///
  /// - Parameter rows: cell texts used to size `.fit` columns; pass only what will be shown
  ///   (e.g. the visible rows) to keep this cheap.
  /// - Complexity: O(cells in `rows`).
  public func columnWidths(totalWidth: Int, rows: [[String]] = []) -> [Int] {
    var widths = columns.enumerated().map { index, column -> Int in
      switch column.width {
      case .fixed(let width):
        return max(0, width)
      case .fit(let minimum, let maximum):
        var widest = column.title.displayWidth
        for row in rows where index < row.count {
          widest = max(widest, ASCIIText.printableCount(row[index].utf8) ?? row[index].displayWidth)
        }
        return min(max(widest, minimum), maximum)
      case .flexible(let minimum, _):
        return max(0, minimum)
      }
    }
    let gaps = spacing * max(0, columns.count - 1)
    var extra = totalWidth - gaps - widths.reduce(0, +)
    let flexible = columns.indices.filter {
      if case .flexible = columns[$0].width { return true } else { return false }
    }
    if extra > 0, !flexible.isEmpty {
      let weights = flexible.map { index -> Int in
        if case .flexible(_, let weight) = columns[index].width { return max(1, weight) }
        return 1
      }
      let totalWeight = weights.reduce(0, +)
      var given = 0
      for (position, index) in flexible.enumerated() {
        let share = extra * weights[position] / totalWeight
        widths[index] += share
        given += share
      }
      // Hand out the rounding remainder left to right.
      var remainder = extra - given
      var position = 0
      while remainder > 0 {
        widths[flexible[position % flexible.count]] += 1
        remainder -= 1
        position += 1
      }
      extra = 0
    }
    if extra < 0 {
      // Fit columns give way down to their minimum first, then flexible columns below theirs.
      let fit = columns.indices.filter {
        if case .fit = columns[$0].width { return true } else { return false }
      }
      extra = -shrink(&widths, by: -extra, indices: fit.reversed()) { index in
        if case .fit(let minimum, _) = columns[index].width { return max(0, minimum) }
        return 0
      }
      _ = shrink(&widths, by: -extra, indices: flexible.reversed()) { _ in 0 }
    }
    return widths
  }

  /// Takes up to `amount` cells from the columns at `indices`, each down to its floor; returns
  /// what could not be taken.
  private func shrink(
    _ widths: inout [Int], by amount: Int, indices: some Sequence<Int>, floor: (Int) -> Int
  ) -> Int {
    var remaining = amount
    for index in indices where remaining > 0 {
      let take = min(remaining, max(0, widths[index] - floor(index)))
      widths[index] -= take
      remaining -= take
    }
    return remaining
  }

  /// The display column where each column starts.
  public func columnOffsets(widths: [Int]) -> [Int] {
    var offsets: [Int] = []
    var x = 0
    for width in widths {
      offsets.append(x)
      x += width + spacing
    }
    return offsets
  }

  /// One row as a string: each cell truncated and padded to its column, columns separated by
  /// `spacing` blanks. Trailing blanks are kept, so every line has the same display width.
  public func format(_ cells: [String], widths: [Int]) -> String {
    var line = ""
    for (index, width) in widths.enumerated() {
      if index > 0 { line += String(repeating: " ", count: spacing) }
      let text = index < cells.count ? Canvas.singleLine(cells[index]) : ""
      line += text.padded(toWidth: width, alignRight: columns[index].alignment == .right)
    }
    return line
  }

  /// Draws the column titles on local row `y`.
  public func drawHeader(in canvas: inout Canvas, y: Int, widths: [Int], style: Style = .bold) {
    drawRow(TableRow(columns.map(\.title), style: style), in: &canvas, y: y, widths: widths)
  }

  /// Draws one row on local row `y`, filling the full canvas width with the row's style.
  public func drawRow(_ row: TableRow, in canvas: inout Canvas, y: Int, widths: [Int]) {
    drawRow(
      row.cells, style: row.style, in: &canvas, y: y, widths: widths, offsets: columnOffsets(widths: widths)
    ) { index in index < row.cellStyles.count ? row.cellStyles[index] : nil }
  }

  /// ``drawRow(_:in:y:widths:)`` without building a ``TableRow``, with the offsets of `widths`
  /// computed once per table rather than per row.
  func drawRow(
    _ cells: [String], style: Style, in canvas: inout Canvas, y: Int, widths: [Int], offsets: [Int],
    cellStyle: (Int) -> Style?
  ) {
    canvas.fill(Rect(x: 0, y: y, width: canvas.size.width, height: 1), style: style)
    for (index, width) in widths.enumerated() where width > 0 && index < cells.count {
      canvas.text(
        cells[index], x: offsets[index], y: y, width: width, style: TableRow.style(cellStyle(index), in: style),
        align: columns[index].alignment)
    }
  }

  /// Draws the rows of `viewport` from local row `top` down, asking `row` only for visible
  /// indices, so a table of any length costs what its visible rows cost.
  public func drawRows(
    in canvas: inout Canvas, top: Int, widths: [Int], viewport: ScrollViewport, count: Int,
    row: (Int) -> TableRow
  ) {
    for index in viewport.visibleRange(count: count) {
      drawRow(row(index), in: &canvas, y: top + index - viewport.firstRow, widths: widths)
    }
  }
}
