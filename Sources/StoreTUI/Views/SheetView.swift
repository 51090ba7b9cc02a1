import StoreEngine

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
        let more = "lines \(sheet.firstLine + 1)–\(sheet.firstLine + sheet.lines.count) of \(sheet.totalLines)"
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
