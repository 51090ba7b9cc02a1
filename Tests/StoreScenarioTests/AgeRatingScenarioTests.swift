import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// `set age-rating CODE|none` (what `AppStore.ageRatingCode` answers) and `rescind-consent`.
final class AgeRatingScenarioTests: XCTestCase {
  func testTheFormsParse() throws {
    let steps = try ScenarioParser(catalog: FixtureCatalog.make()).parse("""
      set age-rating 300
      set age-rating none
      rescind-consent
      rescind-consent mina
      """).get()
    XCTAssertEqual(steps.map(\.action), [
      .set(.ageRating(300)), .set(.ageRating(nil)), .rescindConsent(account: nil), .rescindConsent(account: "mina"),
    ])
    XCTAssertEqual(ScenarioStep.Control.ageRating(618).change, .ageRatingCode(618))
  }

  func testABadCodeIsALocatedIssue() {
    guard case .failure(let found) = ScenarioParser(catalog: FixtureCatalog.make()).parse("set age-rating 12+") else {
      return XCTFail("expected an issue")
    }
    let text = found.issues.map(\.description).joined(separator: "\n")
    XCTAssertTrue(text.contains("1:16") && text.contains("Invalid age rating code '12+'"), text)
  }

  func testTheRunnerSetsTheControl() throws {
    let store = try TestStore()
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse("set age-rating 600").get()
    XCTAssertEqual(ScenarioRunner(queue: store.queue, json: true) { _ in }.run(steps), .passed(steps: 1))
    XCTAssertEqual(store.queue.controls.ageRatingCode, 600)
  }

  func testExpectAgeRatingChecksWhatTheAppWouldRead() throws {
    let store = try TestStore()
    let passing = try ScenarioParser(catalog: store.queue.catalog).parse("""
      expect age-rating 100
      set age-rating none
      expect age-rating none
      """).get()
    XCTAssertEqual(ScenarioRunner(queue: store.queue, json: true) { _ in }.run(passing), .passed(steps: 3))
    let failing = try ScenarioParser(catalog: store.queue.catalog).parse("expect age-rating 300").get()
    XCTAssertEqual(
      ScenarioRunner(queue: store.queue, json: false) { _ in }.run(failing),
      .assertionFailed(line: 1, message: "expected AppStore.ageRatingCode to be 300, but it is none"))
  }
}
