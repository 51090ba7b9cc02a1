import Dispatch
import Foundation
import StoreEngine
import StoreTUI
import Testing

@Suite struct PriceFormattingTests {
  @Test func formatsInTheStorefrontsCurrencyAndLocale() {
    #expect(formatPrice(Decimal(string: "1.99") ?? 0, currency: "USD", locale: "en_US") == "$1.99")
    #expect(formatPrice(1200, currency: "KRW", locale: "ko_KR") == "₩1,200")
  }

  /// Many render threads share the cache; under ThreadSanitizer this is what once reported a race.
  @Test func manyThreadsFormattingAtOnceAgreeWithOneThread() {
    let amounts = (0..<64).map { Decimal($0) + Decimal(sign: .plus, exponent: -2, significand: 99) }
    let expected = amounts.map { formatPrice($0, currency: "EUR", locale: "de_DE") }
    let mismatches = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for round in 0..<200 {
        let index = (round * 7 + worker) % amounts.count
        if formatPrice(amounts[index], currency: "EUR", locale: "de_DE") != expected[index] {
          mismatches.withLock { $0 += 1 }
        }
      }
    }
    #expect(mismatches.withLock { $0 } == 0)
  }
}
