import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// B63: `set storefront` takes only App Store storefronts.
final class ScenarioStorefrontTests: XCTestCase {
  typealias F = FixtureCatalog

  func testB63UnknownStorefrontIsALocatedParseErrorWithNearMatches() {
    let script = """
      account jake
      set storefront ZZZ
      set storefront USB
      """
    guard case .failure(let issues) = ScenarioParser(catalog: F.make()).parse(script) else { return XCTFail("expected issues") }
    XCTAssertEqual(issues.issues.map(\.description), [
      "2:16: Unknown storefront 'ZZZ'; it is not an App Store storefront. Use an ISO 3166-1 alpha-3 code such as USA, KOR or JPN.",
      "3:16: Unknown storefront 'USB'; it is not an App Store storefront. Did you mean 'USA' (United States) or 'UZB' (Uzbekistan)? Use an ISO 3166-1 alpha-3 code such as USA, KOR or JPN.",
    ])
  }

  func testB63LowerCaseStorefrontIsNormalized() throws {
    let store = try TestStore(account: nil)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse("""
      account jake
      set storefront kor
      buy \(F.coins)
      """).get()
    let outcome = ScenarioRunner(queue: store.queue, json: true) { _ in }.run(steps)
    XCTAssertEqual(outcome, .passed(steps: 3))
    XCTAssertEqual(store.queue.controls.storefront, "KOR")
    XCTAssertEqual(try store.queue.history().last?.storefront, "KOR")
  }

  func testB63EngineRefusalIsWordedWithTheVerb() {
    let message = ScenarioErrorText.message(for: .unknownStorefront("USB", nearMatches: ["USA"]))
    XCTAssertEqual(message, "Unknown storefront 'USB'. Did you mean 'USA' (United States)? Use an App Store storefront's ISO 3166-1 alpha-3 code, e.g. `set storefront USA` or `set storefront KOR`.")
  }
}
