import StoreEngine

/// The sandbox controls, account and app actions, one per row.
enum SettingsView {
  static func draw(_ state: AppState, layout: AppLayout, in canvas: inout Canvas) {
    let labelWidth = 34
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
