import StoreEngine

/// The sandbox controls, account and app actions, one per row.
enum SettingsView {
  static func draw(_ state: AppState, layout: AppLayout, in canvas: inout Canvas) {
    let labelWidth = 30
    canvas.text(" Setting".padded(toWidth: labelWidth + 1) + "Value", x: 0, y: 0, style: Style([.bold, .underline]))
    let items = SettingsItem.all
    let viewport = ScrollViewport(firstRow: state.scroll(of: .settings).firstRow, visibleRows: layout.visibleRows(.settings))
    let selection = state.scroll(of: .settings).selection
    for index in viewport.visibleRange(count: items.count) {
      let y = 1 + index - viewport.firstRow
      let item = items[index]
      let value = item.value(in: state)
      let selected = index == selection
      let base: Style = selected ? .reverse : .plain
      canvas.fill(Rect(x: 0, y: y, width: canvas.size.width, height: 1), style: base)
      canvas.text(" " + item.label, x: 0, y: y, width: labelWidth, style: base)
      let role: ColorRole? =
        switch value {
        case "on": .success
        case "off", "none", "—": .muted
        default: nil
        }
      canvas.text(value, x: labelWidth + 1, y: y, style: Style(base.attributes, color: role))
    }
  }
}

/// Every observer callback, with the virtual time it happened at.
enum LogView {
  static func draw(_ state: AppState, layout: AppLayout, in canvas: inout Canvas) {
    let log = state.log
    var title = " Observer log: \(log.count) lines"
    if log.dropped > 0 { title += " (\(log.dropped) older dropped)" }
    title += state.logFollowsTail ? " · following" : " · End to follow"
    canvas.text(title, x: 0, y: 0, style: Style([.bold, .underline]))
    if log.count == 0 {
      canvas.text("No observer callbacks yet: buy or restore something.", x: 1, y: 1, style: .muted)
      return
    }
    let viewport = ScrollViewport(firstRow: state.scroll(of: .log).firstRow, visibleRows: layout.visibleRows(.log))
    let selection = state.scroll(of: .log).selection
    for index in viewport.visibleRange(count: log.count) {
      let y = 1 + index - viewport.firstRow
      let line = log[index]
      let style: Style =
        if index == selection && !state.logFollowsTail { .reverse }
        else if line.contains(" failed") || line.contains("error") || line.contains("Failed") { .error }
        else { .plain }
      canvas.text(" " + line, x: 0, y: y, style: style)
    }
  }
}

/// A sheet over the panes: a bordered box with text and buttons.
enum SheetView {
  static func draw(_ sheet: SheetLayout, in buffer: inout ScreenBuffer) {
    buffer.draw(in: sheet.box) { canvas in
      canvas.fill()
      let inside = canvas.box(canvas.bounds, border: .rounded, style: .accent, title: sheet.title, titleStyle: Style([.bold]))
      for (offset, line) in sheet.lines.enumerated() where offset < inside.height - 2 {
        canvas.text(line.text, x: inside.x + 1, y: inside.y + offset, width: inside.width - 2, style: line.style)
      }
      if sheet.totalLines > sheet.visibleLines, sheet.visibleLines > 0 {
        let more = "\(sheet.lines.count) of \(sheet.totalLines) lines"
        canvas.text(more, x: inside.x + 1, y: inside.maxY - 1, style: .muted)
      }
    }
    buffer.draw { canvas in
      for spot in sheet.buttons {
        let style: Style = spot.role == .confirm ? Style([.reverse, .bold]) : .accent
        canvas.button(spot.title, x: spot.rect.x, y: spot.rect.y, style: style)
      }
    }
  }
}
