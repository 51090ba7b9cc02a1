import StoreEngine
import StoreTUI
import Testing

@Suite struct TableLayoutTests {
  static let products: [[String]] = [
    ["광고 제거", "com.example.removeads", "₩3,300", "Owned"],
    ["広告削除", "jp.example.removeads", "¥480", "Ready"],
    ["去除广告", "cn.example.removeads", "¥18", "Ready"],
    ["Remove Ads 🎉", "com.example.removeads.en", "$2.99", "Purchasing…"],
    [
      "프리미엄 월간 구독 (아주 긴 이름의 상품입니다 정말로)", "com.example.premium.monthly", "₩5,900",
      "Expires 2026-01-01",
    ],
    ["👨‍👩‍👧 Family Pack with a very long English name that goes on", "family", "$9.99", "Deferred"],
  ]

  static let table = TableLayout(columns: [
    TableColumn("Product", width: .flexible(min: 6)),
    TableColumn("Product ID", width: .fit(min: 8, max: 24)),
    TableColumn("Price", width: .fit(min: 5, max: 10), alignment: .right),
    TableColumn("Status", width: .fit(min: 6, max: 12)),
    TableColumn("", width: .fixed(Button.width("Buy"))),
  ])

  static func rows() -> [[String]] { products.map { $0 + [Button.label("Buy")] } }

  @Test func fixedAndFitColumnsFirstThenFlexibleTakesTheRest() {
    let widths = Self.table.columnWidths(totalWidth: 100, rows: Self.rows())
    #expect(widths[1] == 24)  // capped at max
    #expect(widths[2] == 6)  // "₩3,300"
    #expect(widths[3] == 12)
    #expect(widths[4] == 7)
    #expect(widths.reduce(0, +) + 2 * 4 == 100)
  }

  @Test func flexibleColumnsShareByWeightWithRemainderToTheLeft() {
    let layout = TableLayout(
      columns: [
        TableColumn("a", width: .flexible(min: 0, weight: 1)),
        TableColumn("b", width: .flexible(min: 0, weight: 2)),
        TableColumn("c", width: .fixed(3)),
      ], spacing: 1)
    #expect(layout.columnWidths(totalWidth: 15) == [4, 6, 3])
    #expect(layout.columnWidths(totalWidth: 16) == [4, 7, 3])  // 11 = 3 + 7, remainder 1
  }

  @Test func narrowTablesShrinkFitColumnsBeforeFlexibleBelowItsMinimum() {
    let narrow = Self.table.columnWidths(totalWidth: 50, rows: Self.rows())
    #expect(narrow[0] == 6)  // flexible kept at its minimum
    #expect(narrow.reduce(0, +) + 8 == 50)
    let tiny = Self.table.columnWidths(totalWidth: 30, rows: Self.rows())
    #expect(tiny[1] == 8 && tiny[2] == 5 && tiny[3] == 6)  // fit columns at their minimum
    #expect(tiny[0] == 0)
  }

  @Test(arguments: [40, 52, 64, 80, 100, 132])
  func everyRowStartsEachColumnAtTheSameDisplayColumn(totalWidth: Int) {
    let rows = Self.rows()
    let widths = Self.table.columnWidths(totalWidth: totalWidth, rows: rows)
    let offsets = Self.table.columnOffsets(widths: widths)
    var buffer = ScreenBuffer(size: Size(width: totalWidth, height: rows.count))
    buffer.draw { canvas in
      for (y, cells) in rows.enumerated() {
        Self.table.drawRow(TableRow(cells), in: &canvas, y: y, widths: widths)
      }
    }
    for (y, cells) in rows.enumerated() {
      for (column, text) in cells.enumerated()
      where widths[column] > 0 && offsets[column] < totalWidth {
        let fitted = text.truncated(toWidth: min(widths[column], totalWidth - offsets[column]))
        let start =
          Self.table.columns[column].alignment == .right
          ? offsets[column] + widths[column] - fitted.displayWidth : offsets[column]
        guard let first = fitted.first, start < totalWidth else { continue }
        #expect(
          buffer[start, y].character == first,
          "row \(y) column \(column) at width \(totalWidth): \(buffer.row(y).text)")
        if column > 0, offsets[column] > 0 {
          #expect(buffer[offsets[column] - 1, y].character == " ", "gap before column \(column)")
        }
      }
    }
    let lines = rows.map { Self.table.format($0, widths: widths) }
    #expect(Set(lines.map(\.displayWidth)) == [widths.reduce(0, +) + 2 * (widths.count - 1)])
  }

  @Test func tableSnapshotAt72Columns() {
    let rows = Self.rows()
    let size = Size(width: 72, height: rows.count + 2)
    var buffer = ScreenBuffer(size: size)
    buffer.draw { canvas in
      let widths = Self.table.columnWidths(totalWidth: size.width, rows: rows)
      Self.table.drawHeader(in: &canvas, y: 0, widths: widths)
      canvas.horizontalRule(y: 1)
      for (index, cells) in rows.enumerated() {
        Self.table.drawRow(
          TableRow(cells, style: index == 1 ? .reverse : .plain), in: &canvas, y: index + 2,
          widths: widths)
      }
    }
    #expect(buffer[71, 3].style == .reverse)  // the selection spans the full width
    assertScreen(buffer, named: "table-72-columns")
  }

  @Test func cellStylesKeepTheRowsReverseVideo() {
    let row = TableRow(["a", "b"], style: .reverse, cellStyles: [nil, .success])
    #expect(row.style(ofCell: 0) == .reverse)
    #expect(row.style(ofCell: 1) == Style(.reverse, color: .success))
    #expect(row.style(ofCell: 7) == .reverse)
  }

  @Test func drawingTenThousandRowsTouchesOnlyVisibleRows() {
    let count = 10_000
    var viewport = ScrollViewport(visibleRows: 20)
    viewport.reveal(9_500, count: count)
    var requested: [Int] = []
    var buffer = ScreenBuffer(size: Size(width: 60, height: 22))
    let layout = TableLayout(columns: [
      TableColumn("Name", width: .flexible()),
      TableColumn("Price", width: .fixed(6), alignment: .right),
    ])
    let widths = layout.columnWidths(totalWidth: 60)
    buffer.draw { canvas in
      layout.drawRows(in: &canvas, top: 2, widths: widths, viewport: viewport, count: count) {
        index in
        requested.append(index)
        return TableRow(["Coins \(index)", "$0.99"])
      }
    }
    #expect(requested == Array(9_481...9_500))
    #expect(buffer.row(21).text.hasPrefix("Coins 9500"))
  }
}
