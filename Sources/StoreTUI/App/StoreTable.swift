import StoreEngine

/// The Store pane's table: columns, and the cells of one row, formatted on demand.
///
/// Only rows on screen are ever formatted (by ``render(_:)`` and by mouse hit-testing); a
/// ``RenderProbe`` counts them so tests can prove it.
public enum StoreTable {
  public static let buyTitle = "Buy"

  public static let layout = TableLayout(columns: [
    TableColumn("Product", width: .flexible(min: 12)),
    TableColumn("Type", width: .fit(min: 4, max: 14)),
    TableColumn("Price", width: .fit(min: 5, max: 14), alignment: .right),
    // Wide enough for "purchasing…", "owned" and "bought ×N", so the first purchase on a screen
    // refreshes its row without shifting every other row.
    TableColumn("Status", width: .fit(min: 12, max: 26)),
    TableColumn("", width: .fixed(Button.width(buyTitle))),
  ])

  /// The cells of row `index`: name, kind, price, status (the Buy column is drawn as a button).
  public static func cells(_ state: AppState, row index: Int, probe: RenderProbe? = nil) -> [String] {
    probe?.productRowsFormatted += 1
    let product = state.products[index]
    return [
      product.displayName(locale: state.controls.locale), product.kind.label, state.price(product.price),
      state.status(of: product.id).text, "",
    ]
  }

  /// The viewport of the Store list for the state's size.
  public static func viewport(_ state: AppState) -> ScrollViewport {
    let layout = AppLayout(size: state.size)
    let scroll = state.scroll(of: .store)
    return ScrollViewport(firstRow: scroll.firstRow, visibleRows: layout.visibleRows(.store))
  }

  /// The formatted visible rows and the column widths they produce.
  public static func visible(_ state: AppState, probe: RenderProbe? = nil) -> (rows: [(index: Int, cells: [String])], widths: [Int]) {
    let layout = AppLayout(size: state.size)
    let range = viewport(state).visibleRange(count: state.products.count)
    let rows = range.map { (index: $0, cells: cells(state, row: $0, probe: probe)) }
    let widths = Self.layout.columnWidths(totalWidth: layout.body.width, rows: rows.map(\.cells))
    return (rows, widths)
  }

  /// The `[ Buy ]` column's screen x range for the given widths.
  public static func buyColumn(widths: [Int], in body: Rect) -> Range<Int> {
    let offsets = layout.columnOffsets(widths: widths)
    guard let x = offsets.last, let width = widths.last else { return body.x..<body.x }
    return (body.x + x)..<(body.x + x + width)
  }
}

/// Counts formatting work during a render, for tests that prove cost follows what is visible.
public final class RenderProbe {
  /// Store rows formatted.
  public var productRowsFormatted = 0
  /// Transactions rows formatted.
  public var transactionRowsFormatted = 0

  public init() {}
}
