import StoreTUI
import Testing

@Suite struct ScrollViewportTests {
  @Test func scrollsOnlyWhenTheSelectionLeavesTheWindow() {
    var viewport = ScrollViewport(visibleRows: 5)
    viewport.reveal(3, count: 100)
    #expect(viewport.firstRow == 0)
    viewport.reveal(5, count: 100)
    #expect(viewport.firstRow == 1)
    viewport.reveal(4, count: 100)
    #expect(viewport.firstRow == 1)
    viewport.reveal(0, count: 100)
    #expect(viewport.firstRow == 0)
  }

  @Test func marginKeepsContextAroundTheSelection() {
    var viewport = ScrollViewport(visibleRows: 5)
    viewport.reveal(3, count: 100, margin: 1)
    #expect(viewport.firstRow == 0)
    viewport.reveal(4, count: 100, margin: 1)
    #expect(viewport.firstRow == 1)
    viewport.reveal(99, count: 100, margin: 1)
    #expect(viewport.firstRow == 95)  // clamped: no empty rows after the end
  }

  @Test func jumpsAndClampsForLongLists() {
    var viewport = ScrollViewport(visibleRows: 20)
    viewport.reveal(9_999, count: 10_000)
    #expect(viewport.firstRow == 9_980)
    #expect(viewport.visibleRange(count: 10_000) == 9_980..<10_000)
    viewport.reveal(-5, count: 10_000)
    #expect(viewport.firstRow == 0)
  }

  @Test func shortAndEmptyLists() {
    var viewport = ScrollViewport(firstRow: 7, visibleRows: 10)
    #expect(viewport.visibleRange(count: 3) == 3..<3)
    viewport.reveal(2, count: 3)
    #expect(viewport.firstRow == 0)
    #expect(viewport.visibleRange(count: 3) == 0..<3)
    viewport.reveal(0, count: 0)
    #expect(viewport.firstRow == 0)
    #expect(ScrollViewport(visibleRows: 0).firstRow(revealing: 5, count: 10) == 0)
  }

  @Test func mapsScreenOffsetsToRowsForClicks() {
    let viewport = ScrollViewport(firstRow: 10, visibleRows: 5)
    #expect(viewport.index(atOffset: 0, count: 100) == 10)
    #expect(viewport.index(atOffset: 4, count: 100) == 14)
    #expect(viewport.index(atOffset: 5, count: 100) == nil)
    #expect(viewport.index(atOffset: 2, count: 11) == nil)
    #expect(viewport.offset(of: 12, count: 100) == 2)
    #expect(viewport.offset(of: 9, count: 100) == nil)
  }

  @Test func moveClampsAndPageStepKeepsOneRowOfContext() {
    #expect(ScrollViewport.move(5, by: 10, count: 8) == 7)
    #expect(ScrollViewport.move(5, by: -10, count: 8) == 0)
    #expect(ScrollViewport.move(5, by: 1, count: 0) == 0)
    #expect(ScrollViewport(visibleRows: 10).pageStep == 9)
    #expect(ScrollViewport(visibleRows: 1).pageStep == 1)
  }
}
