import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

@Suite struct AppReducerMouseTests {
  private func click(_ x: Int, _ y: Int) -> AppAction { .key(.mouse(MouseEvent(x: x, y: y, kind: .click))) }

  /// Where `text` is drawn on screen, as (x, y) of its first cell.
  private func locate(_ text: String, in buffer: ScreenBuffer) -> (x: Int, y: Int)? {
    for y in 0..<buffer.size.height {
      var x = 0
      var line = ""
      var columns: [Int] = []
      for column in 0..<buffer.size.width {
        if let character = buffer[column, y].character {
          line.append(character)
          columns.append(column)
        }
      }
      if let range = line.range(of: text) {
        x = columns[line.distance(from: line.startIndex, to: range.lowerBound)]
        return (x, y)
      }
    }
    return nil
  }

  @Test func clickingATabFocusesIt() throws {
    var state = makeState()
    let spot = try #require(locate("3 Settings", in: render(state)))
    send(&state, click(spot.x, spot.y))
    #expect(state.focus == .settings)
  }

  @Test func clickingBuyOnARowBuysThatProduct() throws {
    var state = makeState()
    let screen = render(state)
    let coins = try #require(locate("100 Coins", in: screen))
    let buy = try #require(locate("[ Buy ]", in: screen))
    #expect(send(&state, click(buy.x + 2, coins.y)) == [.buy(FixtureCatalog.coins)])
    #expect(state.scroll(of: .store).selection == 1)
    // A click elsewhere on the row only selects it.
    #expect(send(&state, click(coins.x, coins.y + 1)) == [])
    #expect(state.scroll(of: .store).selection == 2)
  }

  @Test func clickingRestorePurchasesRestores() throws {
    var state = makeState()
    let spot = try #require(locate("[ Restore Purchases ]", in: render(state)))
    #expect(send(&state, click(spot.x + 5, spot.y)) == [.restore])
  }

  @Test func clickingSheetButtons() throws {
    let prompt = StoreEvent.promptPresented(.confirm(
      transaction: PaymentTransaction.ID(1), product: FixtureCatalog.coins, quantity: 1, alreadyOwned: false,
      price: TestStore.listPrice(FixtureCatalog.coins, quantity: 1)))
    var state = makeState()
    send(&state, .engine(prompt))
    let buy = try #require(locate("[ Buy ] │", in: render(state)))
    #expect(send(&state, click(buy.x + 1, buy.y)) == [.confirm])
    send(&state, .engine(prompt))
    let cancel = try #require(locate("[ Cancel ]", in: render(state)))
    // Clicks outside the buttons do nothing while a sheet is up.
    #expect(send(&state, click(0, 0)) == [])
    #expect(send(&state, click(cancel.x + 3, cancel.y)) == [.cancel])
  }

  @Test func theWheelScrolls() {
    var state = makeState(catalog: largeCatalog(50))
    send(&state, .key(.mouse(MouseEvent(x: 5, y: 8, kind: .wheelDown))))
    #expect(state.scroll(of: .store).selection == 3)
    send(&state, .key(.mouse(MouseEvent(x: 5, y: 8, kind: .wheelUp))))
    #expect(state.scroll(of: .store).selection == 0)
  }

  @Test func clickingARowInAScrolledListSelectsWhatIsDrawnThere() throws {
    var state = makeState(catalog: largeCatalog(500))
    send(&state, .key(.end))
    let screen = render(state)
    let spot = try #require(locate("Item 490", in: screen))
    send(&state, click(spot.x, spot.y))
    #expect(state.scroll(of: .store).selection == 490)
  }
}

@Suite struct RenderCostTests {
  @Test func renderingTenThousandProductsFormatsOnlyVisibleRows() {
    let visible = AppLayout(size: standardSize).visibleRows(.store)
    let small = makeState(catalog: largeCatalog(10))
    let smallProbe = RenderProbe()
    _ = render(small, probe: smallProbe)
    #expect(smallProbe.productRowsFormatted == 10)

    var large = makeState(catalog: largeCatalog(10_000))
    let probe = RenderProbe()
    _ = render(large, probe: probe)
    #expect(probe.productRowsFormatted == visible)
    send(&large, .key(.end))
    let endProbe = RenderProbe()
    let screen = render(large, probe: endProbe)
    #expect(endProbe.productRowsFormatted == visible)
    #expect(screen.plainText.contains("Item 9999"))
    #expect(screen.plainText.contains("10000 of 10000 products"))
  }

  @Test func transactionsRenderOnlyVisibleRows() {
    let history = (1...2_000).map {
      makeTransaction(UInt64($0), FixtureCatalog.coins, kind: .consumable, state: .purchased, finished: true)
    }
    var state = makeState(transactions: history)
    send(&state, .key(.char("2")))
    let probe = RenderProbe()
    _ = render(state, probe: probe)
    #expect(probe.transactionRowsFormatted == AppLayout(size: standardSize).visibleRows(.transactions))
  }
}
