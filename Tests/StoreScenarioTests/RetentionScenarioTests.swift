import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// `cancel-flow PRODUCT [choose=…]` and `expect retention-sheet`: parsed with located issues, run
/// against the flow the runner's owner gives it (here a stand-in that answers as told).
final class RetentionScenarioTests: XCTestCase {
  typealias F = FixtureCatalog

  private func parse(_ script: String) -> Result<[ScenarioStep], ScenarioIssues> {
    ScenarioParser(catalog: F.make()).parse(script)
  }

  func testTheFormsParseAndBadOnesAreLocatedIssues() throws {
    let steps = try parse("""
      cancel-flow \(F.monthly)
      cancel-flow \(F.monthly) choose=accept
      expect retention-sheet alternate \(F.yearly)
      expect retention-sheet plain
      """).get()
    XCTAssertEqual(steps.map(\.action), [
      .cancelFlow(F.monthly, choice: .dismiss), .cancelFlow(F.monthly, choice: .accept),
      .expect(.retentionSheet("alternate", F.yearly.rawValue)), .expect(.retentionSheet("plain", nil)),
    ])
    guard case .failure(let found) = parse("cancel-flow \(F.monthly) choose=later\nexpect retention-sheet banner\n") else {
      return XCTFail("expected issues")
    }
    let text = found.issues.map(\.description)
    XCTAssertTrue(text[0].contains("Invalid choice 'later'; use dismiss, accept or cancel."), text[0])
    XCTAssertTrue(text[1].contains("Expected plain, message, alternate or offer, found 'banner'."), text[1])
  }

  private func run(_ script: String, answer: RetentionSheet?) throws -> (ScenarioOutcome, [String], TestStore) {
    let store = try TestStore()
    let steps = try parse(script).get()
    var lines: [String] = []
    let runner = ScenarioRunner(queue: store.queue, json: true) { lines.append($0) }
    if let answer {
      runner.retentionFlow = { _ in RetentionFlowResult(decision: RetentionDecision(sheet: answer), url: "http://127.0.0.1:9/", outcome: "HTTP 200", milliseconds: 1) }
    }
    return (runner.run(steps), lines, store)
  }

  func testAcceptingAnAlternateProductSwitchesAndCancellingTurnsAutoRenewOff() throws {
    let (outcome, lines, store) = try run("""
      buy \(F.monthly)
      finish last
      cancel-flow \(F.monthly) choose=accept
      expect retention-sheet alternate \(F.yearly)
      expect owned \(F.yearly)
      cancel-flow \(F.yearly) choose=cancel
      """, answer: .alternateProduct(F.yearly, messageID: nil, message: nil))
    XCTAssertEqual(outcome, .passed(steps: 6), lines.joined(separator: "\n"))
    XCTAssertEqual(lines.filter { $0.contains(#""event":"retentionSheet""#) }.count, 2)
    XCTAssertEqual(store.queue.subscriptions().first?.autoRenew, false)
  }

  func testAnExpectationOfAnotherSheetFailsWithWhatWasShown() throws {
    let (outcome, _, _) = try run("""
      buy \(F.monthly)
      cancel-flow \(F.monthly)
      expect retention-sheet offer
      """, answer: .plain)
    XCTAssertEqual(outcome, .assertionFailed(line: 3, message: "expected the retention sheet to be offer, but it was plain"))
  }

  func testWithoutAFlowTheRunStopsAndSaysWhere() throws {
    let (outcome, _, _) = try run("buy \(F.monthly)\ncancel-flow \(F.monthly)\n", answer: nil)
    guard case .aborted(let line, let message) = outcome else { return XCTFail("\(outcome)") }
    XCTAssertEqual(line, 2)
    XCTAssertTrue(message.contains("storefront run"), message)
  }
}
