import NcursesTerminal
import StoreTUI
import Testing

@Suite struct FrameDiffTests {
  typealias Segment = FrameDiff.Segment

  static func frame(_ lines: [String], width: Int = 12) -> ScreenBuffer {
    var buffer = ScreenBuffer(size: Size(width: width, height: lines.count))
    for (y, line) in lines.enumerated() { buffer.write(line, x: 0, y: y) }
    return buffer
  }

  @Test func firstFrameWritesEveryRowInFull() {
    let new = Self.frame(["a", "b", "c"])
    #expect(
      FrameDiff.segments(from: nil, to: new) == (0..<3).map { Segment(y: $0, x: 0, width: 12) })
  }

  @Test func sizeChangeWritesEverything() {
    let old = Self.frame(["a", "b"], width: 10)
    let new = Self.frame(["a", "b"], width: 12)
    #expect(FrameDiff.segments(from: old, to: new).count == 2)
  }

  @Test func identicalFramesWriteNothing() {
    let frame = Self.frame(["광고 제거", "Remove Ads"])
    #expect(FrameDiff.segments(from: frame, to: frame).isEmpty)
  }

  @Test func onlyChangedRunsOfChangedRowsAreWritten() {
    let old = Self.frame(["status: Ready", "row two", "price $0.99"], width: 14)
    let new = Self.frame(["status: Owned", "row two", "price $1.99"], width: 14)
    #expect(
      FrameDiff.segments(from: old, to: new) == [
        Segment(y: 0, x: 8, width: 5),
        Segment(y: 2, x: 7, width: 1),
      ])
  }

  @Test func nearbyChangesMergeAndDistantOnesStaySeparate() {
    let old = Self.frame(["a.b.........c"], width: 14)
    let new = Self.frame(["A.B.........C"], width: 14)
    #expect(
      FrameDiff.segments(from: old, to: new, mergeGap: 3) == [
        Segment(y: 0, x: 0, width: 3),
        Segment(y: 0, x: 12, width: 1),
      ])
    #expect(FrameDiff.segments(from: old, to: new, mergeGap: 0).count == 3)
  }

  @Test func styleOnlyChangesAreWritten() {
    let old = Self.frame(["Coins"])
    var new = old
    new.applyStyle(.reverse, to: Rect(x: 0, y: 0, width: 12, height: 1))
    #expect(FrameDiff.segments(from: old, to: new) == [Segment(y: 0, x: 0, width: 12)])
  }

  @Test func segmentsCoverWholeWideCharacters() {
    // Only the continuation cell differs in content terms when 광 replaces "ab" at x 1.
    let old = Self.frame(["x광y"])
    var new = old
    new.write("고", x: 1, y: 0)
    #expect(FrameDiff.segments(from: old, to: new) == [Segment(y: 0, x: 1, width: 2)])
    // A change starting on a continuation cell is widened to the lead.
    let before = Self.frame(["ab"])
    let after = Self.frame(["a광"])
    let segments = FrameDiff.segments(from: before, to: after)
    #expect(segments == [Segment(y: 0, x: 1, width: 2)])
    // A change ending on a lead includes its continuation.
    var styled = Self.frame(["광고"])
    styled.applyStyle(.bold, to: Rect(x: 0, y: 0, width: 1, height: 1))
    #expect(
      FrameDiff.segments(from: Self.frame(["광고"]), to: styled) == [Segment(y: 0, x: 0, width: 2)])
  }
}
