import Foundation
import StorefrontTestSupport
import XCTest

@testable import StoreEngine

/// B63: only the App Store's storefronts exist.
final class StorefrontCodeTests: XCTestCase {
  typealias F = FixtureCatalog

  func testB63UnknownStorefrontIsRefusedWithATypedError() throws {
    let store = try TestStore()
    XCTAssertThrowsError(try store.queue.set(.storefront("ZZZ"))) { error in
      XCTAssertEqual(error as? EngineError, .unknownStorefront("ZZZ", nearMatches: []))
    }
    XCTAssertThrowsError(try store.queue.set(.storefront("USB"))) { error in
      XCTAssertEqual(error as? EngineError, .unknownStorefront("USB", nearMatches: ["USA", "UZB"]))
      XCTAssertEqual((error as? EngineError)?.name, "unknownStorefront")
    }
    // Nothing changed, and nothing is signed with a storefront Apple does not have.
    XCTAssertEqual(store.queue.controls.storefront, "USA")
    let bought = try store.buy(F.coins)
    XCTAssertEqual(TestStore.payload(of: bought.signedTransaction)["storefront"] as? String, "USA")
  }

  func testB63LowerCaseCodesAreNormalized() throws {
    let store = try TestStore()
    try store.queue.set(.storefront("kor"))
    XCTAssertEqual(store.queue.controls.storefront, "KOR")
    let bought = try store.buy(F.coins)
    XCTAssertEqual(TestStore.payload(of: bought.signedTransaction)["storefrontId"] as? String, "143466")
  }

  func testB63NearMatchesAreOneEditAwayNearestFirst() {
    XCTAssertEqual(Storefront.nearMatches(to: "KRO").map(\.code), ["KOR"])
    XCTAssertEqual(Storefront.nearMatches(to: "zzz"), [])
    XCTAssertEqual(StorefrontSuggestion.didYouMean(["USA", "UZB"]), " Did you mean 'USA' (United States) or 'UZB' (Uzbekistan)?")
    XCTAssertEqual(StorefrontSuggestion.didYouMean([]), "")
    XCTAssertTrue(EngineError.unknownStorefront("ZZZ", nearMatches: []).description.hasPrefix("'ZZZ' is not an App Store storefront;"))
  }
}
