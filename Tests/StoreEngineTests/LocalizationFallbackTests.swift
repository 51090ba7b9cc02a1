import XCTest

@testable import StoreEngine

/// `ko_KR` → `ko` → `en_US` → first: how a product's name is picked for a locale.
final class LocalizationFallbackTests: XCTestCase {
  private let all = [
    Localization(locale: "ja", displayName: "広告の削除"),
    Localization(locale: "en_US", displayName: "Remove Ads"),
    Localization(locale: "ko", displayName: "광고 제거"),
    Localization(locale: "zh_Hans", displayName: "移除广告"),
  ]

  private func best(_ locale: String, in localizations: [Localization]? = nil) -> String? {
    Localization.best(in: localizations ?? all, for: locale)?.displayName
  }

  func testExactLocaleWins() {
    XCTAssertEqual(best("ko", in: all + [Localization(locale: "ko_KR", displayName: "한국")]), "광고 제거")
    XCTAssertEqual(best("ko_KR", in: all + [Localization(locale: "ko_KR", displayName: "한국")]), "한국")
  }

  func testRegionFallsBackToLanguage() {
    XCTAssertEqual(best("ko_KR"), "광고 제거")
    XCTAssertEqual(best("ko-KR"), "광고 제거")
    XCTAssertEqual(best("ja_JP"), "広告の削除")
    XCTAssertEqual(best("zh_CN"), "移除广告")
    XCTAssertEqual(best("zh_Hans_CN"), "移除广告")
  }

  func testUnknownLanguageFallsBackToEnglishThenFirst() {
    XCTAssertEqual(best("fr_FR"), "Remove Ads")
    XCTAssertEqual(best("fr_FR", in: [all[0], all[2]]), "広告の削除")
    XCTAssertNil(best("en_US", in: []))
  }

  func testProductNameFallsBackToReferenceName() {
    let product = Product(id: "a", kind: .consumable, referenceName: "Coins Ref", price: 1, localizations: [
      Localization(locale: "en_US", displayName: "")
    ])
    XCTAssertEqual(product.displayName(locale: "ko_KR"), "Coins Ref")
    XCTAssertEqual(product.displayDescription(locale: "ko_KR"), "")
  }
}
