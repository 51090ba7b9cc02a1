import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// `buy … plan=monthly|upfront`, `expect commitment`, `expect price` (B79, DECISIONS §43).
final class CommitmentScenarioTests: XCTestCase {
  typealias F = FixtureCatalog

  private func run(_ script: String) throws -> ScenarioOutcome {
    let store = try TestStore(catalog: F.withBillingPlans(), account: nil, dialogs: false)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse(script).get()
    return ScenarioRunner(queue: store.queue, json: true) { _ in }.run(steps)
  }

  func testAMonthlyPlanPaysTwelveMonthsOfOneCommitment() throws {
    XCTAssertEqual(
      try run("""
        account tester
        buy \(F.yearly) plan=monthly
        expect commitment last 1/12
        expect price last 2.99
        advance P11M
        expect commitment last 12/12
        advance P1M
        expect commitment last 1/12
        expect transactions 13
        """), .passed(steps: 9))
  }

  func testAWrongCommitmentExpectationSaysWhatItFound() throws {
    let outcome = try run("""
      account tester
      buy \(F.yearly) plan=upfront
      expect commitment last 1/12
      """)
    guard case .assertionFailed(let line, let message) = outcome else { return XCTFail("\(outcome)") }
    XCTAssertEqual(line, 3)
    XCTAssertTrue(message.contains("to be payment 1/12 of a commitment, but it is in none"), message)
    let price = try run("""
      account tester
      buy \(F.yearly) plan=monthly
      expect price last 29.99
      """)
    guard case .assertionFailed(_, let charged) = price else { return XCTFail("\(price)") }
    XCTAssertTrue(charged.contains("but it charged 2.99"), charged)
  }

  func testBadPlanAndCommitmentFormsAreLocatedIssues() {
    guard case .failure(let found) = ScenarioParser(catalog: F.withBillingPlans()).parse("""
      buy \(F.yearly) plan=weekly
      expect commitment last 13/12
      expect price last cheap
      """) else { return XCTFail("expected issues") }
    let text = found.issues.map(\.description).joined(separator: "\n")
    XCTAssertTrue(text.contains("Unknown plan 'weekly'; write plan=monthly"), text)
    XCTAssertTrue(text.contains("Invalid commitment '13/12'"), text)
    XCTAssertTrue(text.contains("Invalid amount 'cheap'"), text)
  }
}
