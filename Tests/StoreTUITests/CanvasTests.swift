import StoreTUI
import Testing

@Suite struct CanvasTests {
  @Test func textIsTruncatedByDisplayWidthWithoutSplittingWideCharacters() {
    var buffer = ScreenBuffer(size: Size(width: 10, height: 3))
    buffer.draw { canvas in
      #expect(canvas.text("広告削除", x: 0, y: 0, width: 5) == 5)  // "広告…"
      canvas.text("Remove Ads Forever", x: 0, y: 1, width: 8)
      canvas.text("광고 제거", x: 6, y: 2)  // 4 columns left before the edge
    }
    assertScreen(
      buffer,
      equals: """
        広告…
        Remove …
              광…
        """)
  }

  @Test func textAlignsInsideWidthAndFlattensNewlines() {
    var buffer = ScreenBuffer(size: Size(width: 10, height: 3))
    buffer.draw { canvas in
      canvas.text("¥480", x: 0, y: 0, width: 10, align: .right)
      canvas.text("ab", x: 0, y: 1, width: 10, align: .center)
      canvas.text("a\nb\tc", x: 0, y: 2)
    }
    assertScreen(buffer, equals: "      ¥480\n    ab\na b c")
  }

  @Test func regionsUseLocalCoordinatesAndClip() {
    var buffer = ScreenBuffer(size: Size(width: 8, height: 3), fill: Cell("."))
    buffer.draw { canvas in
      canvas.withRegion(Rect(x: 2, y: 1, width: 4, height: 1)) { inner in
        #expect(inner.size == Size(width: 4, height: 1))
        inner.text("abcdefgh", x: 0, y: 0)
        inner.text("never", x: 0, y: 1)  // below the region
        inner.fill(Rect(x: 3, y: 0, width: 9, height: 9), with: "#")
      }
    }
    assertScreen(buffer, equals: "........\n..abc#..\n........")
  }

  @Test func boxDrawsBordersAndTitleAndReturnsInterior() {
    var buffer = ScreenBuffer(size: Size(width: 12, height: 4))
    var interior = Rect.zero
    buffer.draw { canvas in
      interior = canvas.box(Rect(x: 0, y: 0, width: 12, height: 4), title: "Sheet")
      canvas.text("Buy?", x: interior.x, y: interior.y)
    }
    #expect(interior == Rect(x: 1, y: 1, width: 10, height: 2))
    assertScreen(
      buffer,
      equals: """
        ┌ Sheet ───┐
        │Buy?      │
        │          │
        └──────────┘
        """)
  }

  @Test(arguments: [BorderStyle.rounded, .double, .heavy])
  func otherBorderStylesUseTheirCorners(_ border: BorderStyle) {
    var buffer = ScreenBuffer(size: Size(width: 3, height: 3))
    buffer.draw { canvas in canvas.box(canvas.bounds, border: border) }
    #expect(buffer[0, 0].character == border.characters.topLeft)
    #expect(buffer[2, 2].character == border.characters.bottomRight)
    #expect(buffer[1, 0].character == border.characters.horizontal)
  }

  @Test func rulesSpanToTheRegionEdge() {
    var buffer = ScreenBuffer(size: Size(width: 5, height: 3))
    buffer.draw { canvas in
      canvas.horizontalRule(x: 1, y: 0)
      canvas.verticalRule(x: 0, y: 1)
    }
    assertScreen(buffer, equals: " ────\n│\n│")
  }

  @Test func buttonReturnsHitRectInScreenCoordinates() {
    var buffer = ScreenBuffer(size: Size(width: 40, height: 5))
    var hit = Rect.zero
    buffer.draw { canvas in
      canvas.withRegion(Rect(x: 10, y: 2, width: 20, height: 2)) { sheet in
        hit = sheet.button("Buy", x: 3, y: 1)
      }
    }
    #expect(Button.width("Buy") == 7)
    #expect(hit == Rect(x: 13, y: 3, width: 7, height: 1))
    #expect(hit.contains(x: 13, y: 3) && hit.contains(x: 19, y: 3))
    #expect(!hit.contains(x: 20, y: 3) && !hit.contains(x: 13, y: 2))
    #expect(buffer.row(3).text == "             [ Buy ]")
    #expect(buffer[13, 3].style == .accent)
  }

  @Test func buttonClippedByRegionHasClippedHitRect() {
    var buffer = ScreenBuffer(size: Size(width: 20, height: 2))
    var hits: [Rect] = []
    buffer.draw { canvas in
      canvas.withRegion(Rect(x: 0, y: 0, width: 10, height: 1)) { bar in
        hits.append(bar.button("Restore Purchases", x: 2, y: 0))
        hits.append(bar.button("Buy", x: 0, y: 1))  // below the region: invisible
      }
    }
    #expect(hits[0] == Rect(x: 2, y: 0, width: 8, height: 1))
    #expect(hits[1].isEmpty)
    #expect(buffer.row(0).text == "  [ Resto…")
  }
}
