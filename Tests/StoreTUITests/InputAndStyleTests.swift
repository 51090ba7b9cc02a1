import StoreTUI
import Testing

@Suite struct InputAndStyleTests {
  @Test(arguments: [
    (Key.char("q"), "q"), (.char(" "), "Space"), (.up, "↑"), (.pageDown, "PgDn"),
    (.ctrl("c"), "Ctrl-C"), (.function(5), "F5"), (.backTab, "Shift-Tab"), (.escape, "Esc"),
  ])
  func keysHaveShortLabels(key: Key, label: String) {
    #expect(key.description == label)
  }

  @Test func monochromeReplacesColorRolesWithAttributes() {
    #expect(Style.error.monochrome == Style(.bold))
    #expect(Style.muted.monochrome == Style(.dim))
    #expect(Style.success.monochrome == .plain)
    #expect(Style(.reverse, color: .accent).monochrome == Style([.reverse, .bold]))
    #expect(Style.reverse.monochrome == .reverse)
    #expect(Style.plain.adding(.underline).colored(.warning) == Style(.underline, color: .warning))
  }

  @Test func rectGeometry() {
    let rect = Rect(x: 2, y: 3, width: 10, height: 4)
    #expect(rect.maxX == 12 && rect.maxY == 7)
    #expect(
      rect.intersection(Rect(x: 10, y: 0, width: 10, height: 4))
        == Rect(x: 10, y: 3, width: 2, height: 1))
    #expect(rect.intersection(Rect(x: 50, y: 50, width: 1, height: 1)).isEmpty)
    #expect(rect.inset(by: 1) == Rect(x: 3, y: 4, width: 8, height: 2))
    #expect(rect.inset(by: 9).isEmpty)
    let (top, rest) = rect.splitTop(1)
    #expect(top.height == 1 && rest == Rect(x: 2, y: 4, width: 10, height: 3))
    let (body, bottom) = rect.splitBottom(2)
    #expect(body.height == 2 && bottom.y == 5)
    #expect(Size(width: 80, height: 24).fits(Size(width: 60, height: 20)))
    #expect(!Size(width: 50, height: 24).fits(Size(width: 60, height: 20)))
  }

  @MainActor @Test func memoryTerminalQueuesKeysAndKeepsFrames() {
    let terminal = MemoryTerminal(size: Size(width: 10, height: 2))
    terminal.type(.down, .enter)
    terminal.type(text: "qé")
    terminal.resize(to: Size(width: 20, height: 5))
    var keys: [Key] = []
    while let key = terminal.nextKey() { keys.append(key) }
    #expect(keys == [.down, .enter, .char("q"), .char("é"), .resize])
    #expect(terminal.size == Size(width: 20, height: 5))
    var frame = ScreenBuffer(size: terminal.size)
    frame.write("hello", x: 0, y: 0)
    terminal.present(frame)
    #expect(terminal.lastFrame?.plainText == "hello\n\n\n\n")
  }
}
