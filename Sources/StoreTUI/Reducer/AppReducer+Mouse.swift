import StoreEngine

extension AppReducer {
  /// Clicks and the wheel, hit-tested against the same layout ``render(_:)`` draws.
  static func mouse(_ event: MouseEvent, _ state: inout AppState) -> [AppCommand] {
    let layout = AppLayout(size: state.size, panes: state.panes)
    if layout.isTooSmall { return [] }
    if let sheet = state.sheet {
      switch event.kind {
      case .wheelUp: return sheetKey(.up, sheet, &state)
      case .wheelDown: return sheetKey(.down, sheet, &state)
      case .click:
        let spots = SheetLayout(sheet: sheet, size: state.size).buttons
        guard let spot = spots.first(where: { $0.rect.contains(event.point) }) else { return [] }
        return sheetKey(spot.role == .confirm ? .enter : spot.role == .alternative ? .char(" ") : .escape, sheet, &state)
      case .press, .release:
        return []
      }
    }
    switch event.kind {
    case .wheelUp:
      move(by: -3, &state)
      return []
    case .wheelDown:
      move(by: 3, &state)
      return []
    case .press, .release:
      return []
    case .click:
      break
    }
    if let tab = layout.tabRects.first(where: { $0.rect.contains(event.point) }) {
      state.focus = tab.pane
      return []
    }
    let pane = state.focus
    if pane == .store, layout.restoreButton.contains(event.point) { return restore(&state) }
    let list = layout.listRect(pane)
    guard list.contains(event.point) else { return [] }
    var viewport = ScrollViewport(firstRow: state.scroll(of: pane).firstRow, visibleRows: list.height)
    viewport.firstRow = min(viewport.firstRow, max(0, count(pane, state) - 1))
    guard let index = viewport.index(atOffset: event.y - list.y, count: count(pane, state)) else { return [] }
    select(index, in: pane, &state)
    if pane == .store {
      // The reducer owns no memo: the visible prices are formatted again (once each) for the widths.
      let widths = StoreTable.formattedVisible(state, prices: PriceMemo()).widths
      if StoreTable.buyColumn(widths: widths, in: layout.body).contains(event.x) {
        return [.buy(state.products[index].id)]
      }
    }
    return []
  }
}
