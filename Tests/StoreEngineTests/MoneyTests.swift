import Foundation
import XCTest

@testable import StoreEngine

/// Storefront table and locale-aware price formatting.
final class MoneyTests: XCTestCase {
  private func price(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? -1 }

  func testPriceFormattingPerCurrencyAndLocale() {
    let cases: [(amount: String, currency: String, locale: String, expected: String)] = [
      ("0.99", "USD", "en_US", "$0.99"),
      ("1200", "KRW", "ko_KR", "₩1,200"),
      ("1200", "KRW", "ko", "₩1,200"),
      ("120", "JPY", "ja_JP", "¥120"),
      ("0.99", "EUR", "de_DE", "0,99\u{00A0}€"),
      ("0.99", "EUR", "fr_FR", "0,99\u{00A0}€"),
      ("1234.5", "EUR", "fr_FR", "1\u{202F}234,50\u{00A0}€"),
      ("6", "CNY", "zh_Hans", "¥6.00"),
      ("6", "CNY", "zh_Hans_CN", "¥6.00"),
      ("0.99", "GBP", "en_GB", "£0.99"),
      ("0.99", "USD", "ko_KR", "US$0.99"),
    ]
    for item in cases {
      XCTAssertEqual(
        PriceFormatter.string(for: price(item.amount), currencyCode: item.currency, locale: item.locale), item.expected,
        "\(item.amount) \(item.currency) \(item.locale)")
    }
  }

  func testZeroDecimalCurrenciesHaveNoFractionDigits() {
    XCTAssertEqual(Money(price("1200"), currencyCode: "KRW").formatted(locale: "en_US"), "₩1,200")
    XCTAssertEqual(Money(price("120"), currencyCode: "JPY").formatted(locale: "en_US"), "¥120")
    XCTAssertEqual(Money(price("4.99"), currencyCode: "USD").decimalString, "4.99")
    XCTAssertEqual(Money(price("38.00"), storefront: Storefront.unitedStates).description, "38 USD")
  }

  func testStorefrontLookup() throws {
    let korea = try XCTUnwrap(Storefront.lookup("KOR"))
    XCTAssertEqual(korea.id, 143466)
    XCTAssertEqual(korea.currencyCode, "KRW")
    XCTAssertEqual(korea.defaultLocale, "ko_KR")
    XCTAssertEqual(Storefront.lookup("kor"), korea)
    let expected: [String: (Int, String)] = [
      "USA": (143441, "USD"), "JPN": (143462, "JPY"), "CHN": (143465, "CNY"), "GBR": (143444, "GBP"),
      "DEU": (143443, "EUR"), "FRA": (143442, "EUR"), "CAN": (143455, "CAD"), "AUS": (143460, "AUD"),
      "IND": (143467, "INR"), "BRA": (143503, "BRL"), "ESP": (143454, "EUR"), "TWN": (143470, "TWD"),
    ]
    for (code, (id, currency)) in expected {
      XCTAssertEqual(Storefront.lookup(code)?.id, id, code)
      XCTAssertEqual(Storefront.lookup(code)?.currencyCode, currency, code)
    }
    XCTAssertEqual(Storefront.lookup("XKX")?.code, "XKS")
    XCTAssertEqual(Storefront.lookup(id: 143466)?.code, "KOR")
    XCTAssertNil(Storefront.lookup("KRO"))
    XCTAssertNil(Storefront.lookup("US"))
  }

  func testStorefrontTableIsCompleteAndConsistent() {
    let all = Storefront.all
    XCTAssertEqual(all.count, 175)
    XCTAssertEqual(Set(all.map(\.code)).count, 175, "codes are unique")
    XCTAssertEqual(Set(all.map(\.id)).count, 175, "ids are unique")
    XCTAssertEqual(all.map(\.code), all.map(\.code).sorted())
    for storefront in all {
      XCTAssertEqual(storefront.code.count, 3, storefront.code)
      XCTAssertTrue((143441...143699).contains(storefront.id), storefront.code)
      XCTAssertEqual(storefront.currencyCode.count, 3, storefront.code)
      // Every currency and locale in the table formats; some locales use native digits (١٫٠٠).
      let formatted = Money(1, storefront: storefront).formatted(locale: storefront.defaultLocale)
      XCTAssertTrue(formatted.unicodeScalars.contains { $0.properties.numericType != nil }, "\(storefront.code): \(formatted)")
    }
    XCTAssertEqual(Storefront.unitedStates, Storefront.lookup("USA"))
  }

  func testNearMatchSuggestsCloseNamesOnly() {
    XCTAssertEqual(NearMatch.closest(to: "Consumabel", in: ["Consumable", "NonConsumable"]), "Consumable")
    XCTAssertEqual(NearMatch.closest(to: "KRO", in: ["USA", "KOR"]), "KOR")
    XCTAssertNil(NearMatch.closest(to: "xyz", in: ["catalog", "run"]))
    XCTAssertEqual(NearMatch.editDistance(Array("ab"), Array("ba")), 1)
  }
}
