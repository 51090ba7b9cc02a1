import StoreTUI
import Testing

@Suite struct ScreenBufferTests {
  @Test func wideCharacterTakesLeadAndContinuationCells() {
    var buffer = ScreenBuffer(size: Size(width: 6, height: 1))
    let end = buffer.write("a광b", x: 0, y: 0)
    #expect(end == 4)
    #expect(buffer[0, 0].character == "a")
    #expect(buffer[1, 0].character == "광")
    #expect(buffer[2, 0].isContinuation)
    #expect(buffer[3, 0].character == "b")
    #expect(buffer.plainText == "a광b")
  }

  @Test func overwritingLeftHalfOfWideCharacterBlanksRightHalf() {
    var buffer = ScreenBuffer(size: Size(width: 4, height: 1))
    buffer.write("漢字", x: 0, y: 0)
    buffer.put("x", x: 0, y: 0)
    #expect(buffer.plainText == "x 字")
    #expect(!buffer[1, 0].isContinuation)
    #expect(buffer[3, 0].isContinuation)
  }

  @Test func overwritingRightHalfOfWideCharacterBlanksLeftHalf() {
    var buffer = ScreenBuffer(size: Size(width: 4, height: 1))
    buffer.write("漢字", x: 0, y: 0)
    buffer.put("x", x: 1, y: 0)
    #expect(buffer.plainText == " x字")
    #expect(buffer[0, 0].character == " ")
  }

  @Test func wideCharacterStraddlingAnotherBreaksBoth() {
    var buffer = ScreenBuffer(size: Size(width: 6, height: 1))
    buffer.write("漢字か", x: 0, y: 0)
    buffer.put("🎉", x: 1, y: 0)  // covers the right half of 漢 and the left half of 字
    #expect(buffer.plainText == " 🎉 か")
    #expect(buffer[2, 0].isContinuation)
    #expect(!buffer[3, 0].isContinuation)
    #expect(buffer[4, 0].character == "か")
  }

  @Test func wideCharacterAtLastColumnBecomesSpace() {
    var buffer = ScreenBuffer(size: Size(width: 3, height: 1))
    let end = buffer.write("ab광", x: 0, y: 0)
    #expect(end == 4)  // the wide character still advances two columns
    #expect(buffer.plainText == "ab")
    #expect(buffer[2, 0].character == " ")
  }

  @Test func wideCharacterHalfClippedAtLeftEdgeLeavesSpace() {
    var buffer = ScreenBuffer(size: Size(width: 4, height: 1), fill: Cell("."))
    buffer.put("広", x: 1, y: 0, clip: Rect(x: 2, y: 0, width: 2, height: 1))
    #expect(buffer.plainText == ".. .")
  }

  @Test func writesAreClippedToGridAndClipRect() {
    var buffer = ScreenBuffer(size: Size(width: 5, height: 2), fill: Cell("."))
    buffer.write("abcdefgh", x: 3, y: 0)
    buffer.write("xyz", x: -1, y: 1)
    buffer.write("ignored", x: 0, y: 5)
    buffer.write("1234", x: 0, y: 1, clip: Rect(x: 3, y: 0, width: 1, height: 2))
    #expect(buffer.plainText == "...ab\nyz.4.")
  }

  @Test func zeroWidthCharactersDrawNothingAndCombiningMarksStayAttached() {
    var buffer = ScreenBuffer(size: Size(width: 4, height: 1))
    let advance = buffer.put("\u{7}", x: 0, y: 0)
    #expect(advance == 0)
    buffer.write("e\u{301}x", x: 0, y: 0)
    #expect(buffer[0, 0].character == "e\u{301}")
    #expect(buffer[1, 0].character == "x")
  }

  @Test func plainTextTrimsTrailingSpacesAndKeepsEveryRow() {
    var buffer = ScreenBuffer(size: Size(width: 5, height: 3))
    buffer.write("hi", x: 1, y: 1)
    #expect(buffer.plainText == "\n hi\n")
  }

  @Test func rowsCompareByContentAndStyle() {
    var a = ScreenBuffer(size: Size(width: 4, height: 2))
    var b = a
    a.write("ab", x: 0, y: 0)
    b.write("ab", x: 0, y: 0)
    #expect(a.row(0) == b.row(0))
    b.write("ab", x: 0, y: 1, style: .bold)
    a.write("ab", x: 0, y: 1)
    #expect(a.row(1) != b.row(1))
    #expect(a.row(1).text == b.row(1).text)
    #expect(a.row(9).isEmpty)
  }

  @Test func runsGroupCellsByStyleAndSpanWideCharacters() {
    var buffer = ScreenBuffer(size: Size(width: 8, height: 1))
    buffer.write("ab", x: 0, y: 0)
    buffer.write("광고", x: 2, y: 0, style: .reverse)
    let runs = buffer.runs(y: 0)
    #expect(runs.count == 3)
    #expect(runs[1] == ScreenBuffer.Run(x: 2, width: 4, style: .reverse, text: "광고"))
    #expect(runs[2].x == 6 && runs[2].width == 2)
  }

  @Test func fillAndApplyStyle() {
    var buffer = ScreenBuffer(size: Size(width: 4, height: 2))
    buffer.fill(Rect(x: 1, y: 0, width: 10, height: 1), with: "-")
    buffer.applyStyle(.reverse, to: Rect(x: 0, y: 1, width: 2, height: 1))
    #expect(buffer.plainText == " ---\n")
    #expect(buffer[1, 1].style == .reverse)
    #expect(buffer[2, 1].style == .plain)
  }

  @Test func outOfRangeReadsAreBlank() {
    let buffer = ScreenBuffer(size: Size(width: 2, height: 2))
    #expect(buffer[-1, 0] == .blank)
    #expect(buffer[0, 5] == .blank)
    #expect(ScreenBuffer(size: Size(width: -3, height: 2)).size == Size(width: 0, height: 2))
  }
}
