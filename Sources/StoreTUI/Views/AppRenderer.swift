import StoreEngine

/// Draws the whole screen for `state` (its size included), formatting prices afresh. Pure.
///
/// For one-off frames (tests, snapshots); something that draws frame after frame passes the
/// ``PriceMemo`` it keeps to ``render(_:prices:)``, as ``AppRuntime/render()`` does.
public func render(_ state: AppState) -> ScreenBuffer {
  render(state, prices: PriceMemo())
}

/// Draws the whole screen for `state` (its size included), with prices remembered in `prices`.
///
/// Built from small view functions, one per region: header, tabs, the focused pane, the status
/// line, the hint bar, then the sheet on top. Pure apart from filling the memo.
public func render(_ state: AppState, prices: PriceMemo) -> ScreenBuffer {
  render(state, prices: prices, probe: nil)
}

/// ``render(_:prices:)`` that also counts formatting work in `probe` (for tests and benchmarks;
/// package-only, like ``RenderProbe``).
package func render(_ state: AppState, prices: PriceMemo = PriceMemo(), probe: RenderProbe?) -> ScreenBuffer {
  var buffer = ScreenBuffer(size: state.size)
  let layout = AppLayout(size: state.size, panes: state.panes)
  if layout.isTooSmall {
    buffer.draw { TooSmallView.draw(size: state.size, in: &$0) }
    return buffer
  }
  buffer.draw(in: layout.title) { HeaderView.title(state, in: &$0) }
  buffer.draw(in: layout.info) { HeaderView.info(state, in: &$0) }
  buffer.draw { TabsView.draw(state, layout: layout, in: &$0) }
  buffer.draw(in: layout.body) { canvas in
    switch state.focus {
    case .store: StoreView.draw(state, layout: layout, prices: prices, probe: probe, in: &canvas)
    case .transactions: TransactionsView.draw(state, layout: layout, probe: probe, in: &canvas)
    case .settings: SettingsView.draw(state, layout: layout, in: &canvas)
    case .log: LogView.draw(state, layout: layout, in: &canvas)
    case .server: ServerView.draw(state, layout: layout, in: &canvas)
    case .catalog: CatalogView.draw(state, layout: layout, in: &canvas)
    }
  }
  buffer.draw(in: layout.status) { StatusLineView.notice(state, in: &$0) }
  buffer.draw(in: layout.hints) { StatusLineView.hints(state, in: &$0) }
  if let sheet = state.sheet {
    SheetView.draw(SheetLayout(sheet: sheet, size: state.size), in: &buffer)
  }
  return buffer
}

/// "Terminal too small — need W×H" instead of a garbled screen.
enum TooSmallView {
  static func draw(size: Size, in canvas: inout Canvas) {
    let need = AppLayout.minimumSize
    let headline = "Terminal too small — need \(need.width)×\(need.height)"
    // On a very narrow terminal the size needed must not be the part cut off.
    let lines = DisplayWidth.of(headline) <= size.width
      ? [headline, "(now \(size.width)×\(size.height))"]
      : ["Terminal too small", "need \(need.width)×\(need.height)", "(now \(size.width)×\(size.height))"]
    let top = max(0, (size.height - lines.count) / 2)
    for (offset, line) in lines.enumerated() {
      canvas.text(line, x: 0, y: top + offset, width: size.width, style: offset == lines.count - 1 ? .muted : .bold, align: .center)
    }
  }
}
