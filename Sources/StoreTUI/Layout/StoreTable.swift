import Foundation
import StoreEngine

/// The Store pane's table: columns, and the cells of one row, formatted on demand.
///
/// Only rows on screen are ever formatted (by ``render(_:prices:)`` and by mouse hit-testing), their
/// prices through a ``PriceMemo``; a `RenderProbe` (package-only) counts them so tests can prove it.
public enum StoreTable {
  public static let buyTitle = "Buy"
  /// `[ Buy ]`, built once rather than on every row.
  static let buyLabel = Button.label(buyTitle)

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
  public static func cells(_ state: AppState, row index: Int, prices: PriceMemo = PriceMemo()) -> [String] {
    var formatter = RowFormatter(state, prices: prices)
    return formatter.row(index, probe: nil).cells
  }

  /// The viewport of the Store list for the state's size.
  public static func viewport(_ state: AppState) -> ScrollViewport {
    let layout = AppLayout(size: state.size)
    let scroll = state.scroll(of: .store)
    return ScrollViewport(firstRow: scroll.firstRow, visibleRows: layout.visibleRows(.store))
  }

  /// The formatted visible rows and the column widths they produce.
  public static func visible(
    _ state: AppState, prices: PriceMemo = PriceMemo()
  ) -> (rows: [(index: Int, cells: [String])], widths: [Int]) {
    let (rows, widths) = formattedVisible(state, prices: prices)
    return (rows.map { (index: $0.index, cells: $0.cells) }, widths)
  }

  /// ``visible(_:prices:)`` with each row's status kept for styling, so it is looked up once, and
  /// the rows formatted counted in `probe`.
  static func formattedVisible(
    _ state: AppState, prices: PriceMemo, probe: RenderProbe? = nil
  ) -> (rows: [FormattedRow], widths: [Int]) {
    let layout = AppLayout(size: state.size)
    let range = viewport(state).visibleRange(count: state.products.count)
    var formatter = RowFormatter(state, prices: prices)
    let rows = range.map { formatter.row($0, probe: probe) }
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

/// One formatted Store row.
struct FormattedRow {
  var index: Int
  var cells: [String]
  var status: ProductStatus
}

/// Formats Store rows, looking up what all rows share (locale, currency) once.
struct RowFormatter {
  let state: AppState
  let prices: PriceMemo
  let currency: String

  init(_ state: AppState, prices: PriceMemo) {
    self.state = state
    self.prices = prices
    self.currency = StorefrontChoices.currency(for: state.controls.storefront)
  }

  mutating func row(_ index: Int, probe: RenderProbe?) -> FormattedRow {
    probe?.productRowsFormatted += 1
    let product = state.products[index]
    let status = state.status(of: product.id)
    let cells = [
      product.displayName(locale: state.controls.locale), product.kind.label, price(product.price), status.text, "",
    ]
    return FormattedRow(index: index, cells: cells, status: status)
  }

  /// Prices already formatted this frame. A screen shows few distinct prices, and a hit here costs
  /// a byte comparison, where the memo costs a lock and hashing a Decimal and two strings.
  private var recentPrices: [(amount: Decimal, text: String)] = []

  private mutating func price(_ amount: Decimal) -> String {
    if let known = recentPrices.first(where: { Self.sameBytes($0.amount, amount) }) { return known.text }
    let text = prices.format(amount, currency: currency, locale: state.controls.locale)
    if recentPrices.count < 16 { recentPrices.append((amount, text)) }
    return text
  }

  /// Whether two decimals are stored alike, which makes them equal (equal values stored
  /// differently, `1.0` and `1.00`, only miss the memo). `==` on Decimal allocates.
  private static func sameBytes(_ lhs: Decimal, _ rhs: Decimal) -> Bool {
    withUnsafeBytes(of: lhs) { lhs in
      withUnsafeBytes(of: rhs) { rhs in
        guard let lhsBase = lhs.baseAddress, let rhsBase = rhs.baseAddress else { return lhs.count == rhs.count }
        return memcmp(lhsBase, rhsBase, lhs.count) == 0
      }
    }
  }
}
