import StoreEngine

/// The product table: name, kind, price, status and a `[ Buy ]` button per row, then
/// `[ Restore Purchases ]`. Only visible rows are formatted.
enum StoreView {
  static func draw(_ state: AppState, layout: AppLayout, probe: RenderProbe?, in canvas: inout Canvas) {
    let table = StoreTable.layout
    let (rows, widths) = StoreTable.visible(state, probe: probe)
    table.drawHeader(in: &canvas, y: 0, widths: widths, style: Style([.bold, .underline]))
    if state.products.isEmpty {
      canvas.text("The catalog has no products. Start with --catalog PATH to load a .storekit file.", x: 1, y: 1, style: .muted)
    }
    let selection = state.scroll(of: .store).selection
    let buyX = table.columnOffsets(widths: widths).last ?? 0
    let firstRow = StoreTable.viewport(state).firstRow
    for (index, cells) in rows {
      let y = 1 + index - firstRow
      let selected = index == selection && state.focus == .store
      let status = state.status(of: state.products[index].id)
      let row = TableRow(
        cells, style: selected ? .reverse : .plain,
        cellStyles: [nil, .muted, nil, status.role.map { Style(color: $0) }, nil])
      table.drawRow(row, in: &canvas, y: y, widths: widths)
      canvas.button(StoreTable.buyTitle, x: buyX, y: y, style: selected ? Style([.reverse, .bold]) : .accent)
    }
    let footer = canvas.size.height - 1
    canvas.button(AppLayout.restoreTitle, x: 1, y: footer, style: .accent)
    let count = state.products.count
    let position = count == 0 ? "" : "\(selection + 1) of \(count) products "
    canvas.text(position, x: canvas.size.width - position.displayWidth, y: footer, style: .muted)
  }
}
