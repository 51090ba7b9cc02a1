import StoreTUI
import Testing

/// The ASCII fast paths of ``ScreenBuffer/write(_:x:y:style:clip:)`` and ``Canvas/text`` and the
/// skipped fills of untouched rows must leave exactly the cells (characters and styles) the general
/// grapheme-by-grapheme path leaves, over any background, including wide characters cut at the edges.
@Suite struct TextFastPathTests {
  /// The general path, one grapheme at a time through `put`: what `write` did before its fast path.
  static func referenceWrite(
    _ text: some StringProtocol, into buffer: inout ScreenBuffer, x: Int, y: Int, style: Style, clip: Rect?
  ) -> Int {
    let limit = (clip.map { $0.intersection(buffer.bounds) } ?? buffer.bounds).maxX
    var column = x
    for character in text {
      if column >= limit { break }
      column += buffer.put(character, x: column, y: y, style: style, clip: clip)
    }
    return column
  }

  /// `Canvas.text` as it was before its fast path, in buffer coordinates for a canvas on `region`.
  static func referenceText(
    _ text: String, into buffer: inout ScreenBuffer, region: Rect, x: Int, y: Int, width: Int?, style: Style,
    align: Canvas.Alignment
  ) -> Int {
    let frame = region.intersection(buffer.bounds)
    let available = min(width ?? Int.max, frame.width - x)
    guard available > 0, y >= 0, y < frame.height else { return 0 }
    let cleaned = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    let cut = cleaned.truncated(toWidth: available)
    let cutWidth = cut.displayWidth
    var start = x
    if let width, width <= available {
      switch align {
      case .left: break
      case .right: start = x + width - cutWidth
      case .center: start = x + (width - cutWidth) / 2
      }
    }
    _ = referenceWrite(cut, into: &buffer, x: frame.x + start, y: frame.y + y, style: style, clip: frame)
    return cutWidth
  }

  /// The first cell where two same-sized buffers differ, described, or `nil` when they are equal.
  static func firstDifference(_ lhs: ScreenBuffer, _ rhs: ScreenBuffer) -> String? {
    for y in 0..<lhs.size.height {
      for x in 0..<lhs.size.width where lhs[x, y] != rhs[x, y] {
        return "(\(x), \(y)): \(lhs[x, y]) vs \(rhs[x, y])"
      }
    }
    return lhs == rhs ? nil : "buffers differ"
  }

  /// A 12×4 background with wide characters at both parities and mixed styles.
  static func background() -> ScreenBuffer {
    var buffer = ScreenBuffer(size: Size(width: 12, height: 4))
    buffer.write("漢字かな漢字", x: 0, y: 0, style: .accent)
    buffer.write("a漢字かな漢", x: 0, y: 1, style: .bold)
    buffer.write("🎉x🎉y🎉z", x: 1, y: 2, style: .reverse)
    return buffer
  }

  /// Deterministic pseudo-random numbers (SplitMix64), so a failure can be replayed.
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
  }

  static let alphabet: [String] = ["a", "Z", " ", "~", "0", "\t", "\n", "\r\n", "\u{1B}", "漢", "か", "🎉", "é", "e\u{301}", "…", "×"]

  static func text(_ random: inout Random, asciiOnly: Bool) -> String {
    let letters = asciiOnly ? ["a", "Z", " ", "~", "0", "$", "."] : alphabet
    return (0..<random.next(16)).map { _ in letters[random.next(letters.count)] }.joined()
  }

  @Test(arguments: [true, false])
  func writeMatchesTheGraphemePath(asciiOnly: Bool) {
    var random = Random(state: asciiOnly ? 1 : 2)
    for _ in 0..<2000 {
      let text = Self.text(&random, asciiOnly: asciiOnly)
      let x = random.next(16) - 3
      let y = random.next(6) - 1
      let clip: Rect? =
        random.next(3) == 0 ? nil : Rect(x: random.next(8) - 2, y: random.next(3), width: random.next(12), height: 2)
      let style = [Style.plain, .muted, Style([.reverse, .bold])][random.next(3)]
      var fast = Self.background()
      var reference = Self.background()
      let fastEnd = fast.write(text, x: x, y: y, style: style, clip: clip)
      let referenceEnd = Self.referenceWrite(text, into: &reference, x: x, y: y, style: style, clip: clip)
      #expect(fastEnd == referenceEnd, "\(text.debugDescription) at \(x),\(y) clip \(String(describing: clip))")
      #expect(Self.firstDifference(fast, reference) == nil, "\(text.debugDescription) at \(x),\(y) clip \(String(describing: clip))")
    }
  }

  @Test(arguments: [true, false])
  func canvasTextMatchesTheGraphemePath(asciiOnly: Bool) {
    var random = Random(state: asciiOnly ? 3 : 4)
    let alignments: [Canvas.Alignment] = [.left, .right, .center]
    for _ in 0..<2000 {
      let text = Self.text(&random, asciiOnly: asciiOnly)
      let region = Rect(x: random.next(6) - 1, y: random.next(3), width: random.next(14), height: 2)
      let x = random.next(12) - 2
      let y = random.next(4) - 1
      let width: Int? = random.next(3) == 0 ? nil : random.next(12)
      let align = alignments[random.next(3)]
      var fast = Self.background()
      var reference = Self.background()
      let fastWidth = fast.draw(in: region) { $0.text(text, x: x, y: y, width: width, style: .warning, align: align) }
      let referenceWidth = Self.referenceText(
        text, into: &reference, region: region, x: x, y: y, width: width, style: .warning, align: align)
      let context = "\(text.debugDescription) at \(x),\(y) width \(String(describing: width)) \(align) in \(region)"
      #expect(fastWidth == referenceWidth, "\(context)")
      #expect(Self.firstDifference(fast, reference) == nil, "\(context)")
    }
  }

  @Test func truncatedASCIIEndsWithEllipsisInTheCellStyle() {
    var buffer = ScreenBuffer(size: Size(width: 10, height: 1))
    let drawn = buffer.draw { $0.text("Season pass 12", x: 1, y: 0, width: 6, style: .success) }
    #expect(drawn == 6)
    #expect(buffer.plainText == " Seaso…")
    #expect(buffer[6, 0] == Cell("…", style: .success))
    #expect(buffer[7, 0] == .blank)
  }

  @Test func fillingATouchedRowWithTheInitialCellStillClearsIt() {
    var buffer = ScreenBuffer(size: Size(width: 6, height: 3))
    buffer.write("abc", x: 0, y: 0)
    buffer.applyStyle(.reverse, to: Rect(x: 0, y: 1, width: 6, height: 1))
    buffer.write("漢字", x: 2, y: 2)
    buffer.fill(Rect(x: 0, y: 0, width: 6, height: 3))
    #expect(buffer == ScreenBuffer(size: Size(width: 6, height: 3)))
  }

  @Test func fillingWithTheBuffersOwnFillCellClearsWhatWasDrawn() {
    let dot = Cell(".", style: .dim)
    var buffer = ScreenBuffer(size: Size(width: 4, height: 2), fill: dot)
    buffer.fill(Rect(x: 0, y: 0, width: 4, height: 2), with: ".", style: .dim)  // untouched: nothing to do
    #expect(buffer == ScreenBuffer(size: Size(width: 4, height: 2), fill: dot))
    buffer.put("x", x: 3, y: 1)
    buffer.fill(Rect(x: 2, y: 1, width: 2, height: 1), with: ".", style: .dim)
    #expect(buffer == ScreenBuffer(size: Size(width: 4, height: 2), fill: dot))
    buffer.fill(Rect(x: 0, y: 0, width: 1, height: 1), with: " ")
    #expect(buffer[0, 0] == .blank)
  }

  @Test func equalityAndHashIgnoreWhichRowsWereDrawnOn() {
    let fresh = ScreenBuffer(size: Size(width: 3, height: 2))
    var redrawn = fresh
    redrawn.put("x", x: 1, y: 1)
    redrawn.put(" ", x: 1, y: 1)
    #expect(redrawn == fresh)
    #expect(redrawn.hashValue == fresh.hashValue)
    #expect(Set([fresh, redrawn]).count == 1)
  }
}
