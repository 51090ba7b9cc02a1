import Dispatch
import Foundation
import StoreEngine
import StoreTUI
import Testing

@Suite struct PriceFormattingTests {
  @Test func formatsInTheStorefrontsCurrencyAndLocale() {
    #expect(formatPrice(Decimal(string: "1.99") ?? 0, currency: "USD", locale: "en_US") == "$1.99")
    #expect(formatPrice(1200, currency: "KRW", locale: "ko_KR") == "₩1,200")
    let prices = PriceMemo()
    #expect(prices.format(1200, currency: "KRW", locale: "ko_KR") == "₩1,200")
    #expect(prices.format(1200, currency: "JPY", locale: "ja_JP") == formatPrice(1200, currency: "JPY", locale: "ja_JP"))
  }

  /// A memo remembers each price once per currency and locale, and starts over when it is full
  /// rather than growing without end; what it returns never changes.
  @Test func theMemoRemembersUpToItsCapacity() {
    let prices = PriceMemo(capacity: 4)
    let one = Decimal(string: "0.99") ?? 0
    _ = prices.format(one, currency: "USD", locale: "en_US")
    _ = prices.format(one, currency: "USD", locale: "en_US")
    #expect(prices.count == 1)
    _ = prices.format(one, currency: "EUR", locale: "de_DE")
    #expect(prices.count == 2)
    for amount in 1...10 {
      #expect(prices.format(Decimal(amount), currency: "USD", locale: "en_US") == "$\(amount).00")
      #expect(prices.count <= 4)
    }
  }

  /// Two memos are independent: rendering with one leaves another empty (no process-wide cache).
  @Test func renderingFillsOnlyTheMemoItIsGiven() {
    let state = makeState()
    let used = PriceMemo()
    let other = PriceMemo()
    _ = render(state, prices: used)
    #expect(used.count > 0)
    #expect(other.count == 0)
    #expect(render(state, prices: used).plainText == render(state).plainText)
  }

  /// The Store table remembers the prices of one frame; every row must still show its own price,
  /// including amounts equal in value but written differently, and more amounts than it remembers.
  @Test func storeRowsShowTheirOwnPrices() {
    let written = ["0.99", "1.99", "0.99", "1.0", "1.00", "1", "100", "0.01", "-0.99"] + (0..<30).map { "\($0).49" }
    let products = written.enumerated().map { index, text in
      Product(
        id: Product.ID("com.example.p\(index)"), kind: .consumable, referenceName: "P\(index)",
        price: Decimal(string: text) ?? 0)
    }
    let state = makeState(catalog: Catalog(products: products), size: Size(width: 100, height: 60))
    let rows = StoreTable.visible(state, prices: PriceMemo()).rows
    #expect(rows.count == products.count)
    for row in rows {
      #expect(row.cells[2] == formatPrice(products[row.index].price, currency: "USD", locale: "en_US"), "row \(row.index)")
    }
    #expect(rows[3].cells[2] == "$1.00" && rows[4].cells[2] == "$1.00" && rows[6].cells[2] == "$100.00")
  }

  /// Render threads may share one memo; under ThreadSanitizer this is what once reported a race
  /// (when the memo was a process-wide cache).
  @Test func manyThreadsSharingAMemoAgreeWithOneThread() {
    let amounts = (0..<64).map { Decimal($0) + Decimal(sign: .plus, exponent: -2, significand: 99) }
    let expected = amounts.map { formatPrice($0, currency: "EUR", locale: "de_DE") }
    let prices = PriceMemo()
    let mismatches = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for round in 0..<200 {
        let index = (round * 7 + worker) % amounts.count
        if prices.format(amounts[index], currency: "EUR", locale: "de_DE") != expected[index] {
          mismatches.withLock { $0 += 1 }
        }
      }
    }
    #expect(mismatches.withLock { $0 } == 0)
  }
}
