import StoreEngine

/// The product table: name, kind, price, status and a `[ Buy ]` button per row, then
/// `[ Restore Purchases ]`. Only visible rows are formatted.
enum StoreView {
  static func draw(_ state: AppState, layout: AppLayout, prices: PriceMemo, probe: RenderProbe?, in canvas: inout Canvas) {
    let table = StoreTable.layout
    let (rows, widths) = StoreTable.formattedVisible(state, prices: prices, probe: probe)
    table.drawHeader(in: &canvas, y: 0, widths: widths, style: Style([.bold, .underline]))
    if state.products.isEmpty {
      let next = state.catalogEditor.path == nil
        ? "Start with --catalog PATH to load a .storekit file." : "Add one in the Catalog pane (6, then a)."
      canvas.text("The catalog has no products. " + next, x: 1, y: 1, style: .muted)
    }
    let selection = state.scroll(of: .store).selection
    let offsets = table.columnOffsets(widths: widths)
    let buyX = offsets.last ?? 0
    let firstRow = StoreTable.viewport(state).firstRow
    for row in rows {
      let y = 1 + row.index - firstRow
      let selected = row.index == selection && state.focus == .store
      let statusStyle = row.status.role.map { Style(color: $0) }
      table.drawRow(row.cells, style: selected ? .reverse : .plain, in: &canvas, y: y, widths: widths, offsets: offsets) {
        switch $0 {
        case 1: .muted
        case 3: statusStyle
        default: nil
        }
      }
      // What `canvas.button` draws, with the label built once.
      canvas.text(StoreTable.buyLabel, x: buyX, y: y, style: selected ? Style([.reverse, .bold]) : .accent)
    }
    let footer = canvas.size.height - 1
    canvas.button(AppLayout.restoreTitle, x: 1, y: footer, style: .accent)
    let count = state.products.count
    let position = count == 0 ? "" : "\(selection + 1) of \(count) products "
    canvas.text(position, x: canvas.size.width - position.displayWidth, y: footer, style: .muted)
  }
}
