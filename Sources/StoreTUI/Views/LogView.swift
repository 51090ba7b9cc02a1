import StoreEngine

/// Every observer callback, with the virtual time it happened at.
enum LogView {
  static func draw(_ state: AppState, layout: AppLayout, in canvas: inout Canvas) {
    let log = state.shownLog
    var title = state.logAPI == .storeKit2 ? " StoreKit 2 view: \(log.count) lines" : " Observer log: \(log.count) lines"
    if log.dropped > 0 { title += " (\(log.dropped) older dropped)" }
    title += state.logFollowsTail ? " · following" : " · End to follow"
    canvas.text(title, x: 0, y: 0, style: Style([.bold, .underline]))
    if log.count == 0 {
      let empty = state.logAPI == .storeKit2
        ? "No StoreKit 2 results or updates yet: buy or sync something." : "No observer callbacks yet: buy or restore something."
      canvas.text(empty, x: 1, y: 1, style: .muted)
      return
    }
    let viewport = ScrollViewport(firstRow: state.scroll(of: .log).firstRow, visibleRows: layout.visibleRows(.log))
    let selection = state.scroll(of: .log).selection
    for index in viewport.visibleRange(count: log.count) {
      let y = 1 + index - viewport.firstRow
      let line = log[index]
      let style: Style =
        if index == selection && !state.logFollowsTail { .reverse }
        else if line.contains(" failed") || line.contains("error") || line.contains("Failed") || line.contains(" threw") { .error }
        else { .plain }
      canvas.text(" " + dropCells(state.logColumn, from: line), x: 0, y: y, style: style)
    }
  }
}

/// `text` without its first `cells` display cells (a wide character cut in half goes entirely).
func dropCells(_ cells: Int, from text: String) -> String {
  guard cells > 0 else { return text }
  var dropped = 0
  var index = text.startIndex
  while index < text.endIndex, dropped < cells {
    dropped += DisplayWidth.of(text[index])
    index = text.index(after: index)
  }
  return String(text[index...])
}
