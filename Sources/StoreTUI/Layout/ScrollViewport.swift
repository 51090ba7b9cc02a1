/// The window of rows a scrolling list shows: the first visible row and how many fit.
///
/// All operations are O(1), independent of the list length.
public struct ScrollViewport: Hashable, Sendable {
  /// Index of the topmost visible row.
  public var firstRow: Int
  /// How many rows fit on screen.
  public var visibleRows: Int

  public init(firstRow: Int = 0, visibleRows: Int) {
    self.firstRow = max(0, firstRow)
    self.visibleRows = max(0, visibleRows)
  }

  /// The indices on screen for a list of `count` rows.
  public func visibleRange(count: Int) -> Range<Int> {
    let start = min(firstRow, max(0, count))
    return start..<min(count, start + visibleRows)
  }

  /// Rows moved by PgUp/PgDn: a screenful minus one row of context.
  public var pageStep: Int { max(1, visibleRows - 1) }

  /// The first row that keeps `selection` visible with the least scrolling from `firstRow`.
  ///
  /// Keeps `margin` rows of context above and below the selection when the list allows, and never
  /// scrolls past the end (the last page is full when `count >= visibleRows`).
  public func firstRow(revealing selection: Int, count: Int, margin: Int = 0) -> Int {
    guard visibleRows > 0, count > 0 else { return 0 }
    let selected = min(max(0, selection), count - 1)
    let context = min(max(0, margin), (visibleRows - 1) / 2)
    var first = firstRow
    if selected - context < first { first = selected - context }
    if selected + context >= first + visibleRows { first = selected + context - visibleRows + 1 }
    let lastFirst = max(0, count - visibleRows)
    return min(max(0, first), lastFirst)
  }

  /// Scrolls so `selection` is visible (see ``firstRow(revealing:count:margin:)``).
  public mutating func reveal(_ selection: Int, count: Int, margin: Int = 0) {
    firstRow = firstRow(revealing: selection, count: count, margin: margin)
  }

  /// The row index shown at screen row `offset` (0 = the viewport's top), for mouse clicks;
  /// `nil` when no row is there.
  public func index(atOffset offset: Int, count: Int) -> Int? {
    guard offset >= 0, offset < visibleRows else { return nil }
    let index = firstRow + offset
    return index < count ? index : nil
  }

  /// Where row `index` is drawn relative to the viewport's top, or `nil` when off screen.
  public func offset(of index: Int, count: Int) -> Int? {
    visibleRange(count: count).contains(index) ? index - firstRow : nil
  }

  /// `selection` moved by `delta` rows, clamped to `0..<count` (0 for an empty list).
  public static func move(_ selection: Int, by delta: Int, count: Int) -> Int {
    guard count > 0 else { return 0 }
    return min(max(0, selection + delta), count - 1)
  }
}
