import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// `server-fault`: the sandbox control for the app's server, parsed here and handed to the runner's
/// owner (the CLI writes the data directory's fault plan).
final class ServerFaultScenarioTests: XCTestCase {
  private func parse(_ script: String) -> Result<[ScenarioStep], ScenarioIssues> {
    ScenarioParser(catalog: FixtureCatalog.make()).parse(script)
  }

  func testTheFormsParse() throws {
    let steps = try parse("""
      server-fault getTransactionInfo answer=429 count=2
      server-fault all answer=retryable delay=250ms
      server-fault getAllSubscriptionStatuses delay=2s
      server-fault getTransactionInfo off
      server-fault clear
      """).get()
    XCTAssertEqual(steps.map(\.action), [
      .serverFault(.set(endpoint: "getTransactionInfo", answer: .rateLimit, delay: nil, count: 2)),
      .serverFault(.set(endpoint: "all", answer: .retryable, delay: .milliseconds(250), count: nil)),
      .serverFault(.set(endpoint: "getAllSubscriptionStatuses", answer: nil, delay: .seconds(2), count: nil)),
      .serverFault(.off(endpoint: "getTransactionInfo")),
      .serverFault(.clear),
    ])
  }

  func testBadArgumentsAreLocatedIssues() {
    guard case .failure(let found) = parse("""
      server-fault getTransactionInfo answer=404
      server-fault getTransactionInfo delay=soon
      server-fault getTransactionInfo answer=500 count=0
      server-fault getTransactionInfo
      server-fault
      server-fault getTransactionInfo delay=61s
      """) else { return XCTFail("expected issues") }
    let text = found.issues.map(\.description)
    XCTAssertEqual(found.issues.map(\.line), [1, 2, 3, 4, 5, 6])
    XCTAssertTrue(text[0].contains("Invalid answer '404'; use 429, 500 or retryable."), text[0])
    XCTAssertTrue(text[1].contains("Invalid delay 'soon'"), text[1])
    XCTAssertTrue(text[2].contains("Invalid count '0'"), text[2])
    XCTAssertTrue(text[3].contains("needs answer=429|500|retryable, delay=…, or both"), text[3])
    XCTAssertTrue(text[4].contains("an App Store Server API endpoint"), text[4])
    XCTAssertTrue(text[5].contains("Invalid delay '61s'"), text[5])
  }

  func testVerifyReceiptTakesApplesRetryableStatuses() throws {
    let steps = try parse("""
      server-fault verifyReceipt answer=21100 count=3
      server-fault verifyReceipt answer=21199
      server-fault verifyReceipt off
      """).get()
    XCTAssertEqual(steps.map(\.action), [
      .serverFault(.verifyReceipt(status: 21100, count: 3)),
      .serverFault(.verifyReceipt(status: 21199, count: nil)),
      .serverFault(.off(endpoint: "verifyReceipt")),
    ])
    guard case .failure(let found) = parse("""
      server-fault verifyReceipt answer=21099
      server-fault verifyReceipt answer=429
      server-fault verifyReceipt
      server-fault verifyReceipt answer=21150 count=0
      """) else { return XCTFail("expected issues") }
    let text = found.issues.map(\.description)
    XCTAssertEqual(found.issues.map(\.line), [1, 2, 3, 4])
    XCTAssertTrue(text[0].contains("use a status from 21100 to 21199"), text[0])
    XCTAssertTrue(text[1].contains("Invalid verifyReceipt answer '429'"), text[1])
    XCTAssertTrue(text[2].contains("needs answer=21100..21199"), text[2])
    XCTAssertTrue(text[3].contains("Invalid count '0'"), text[3])
  }

  func testTheRunnerHandsEachLineToItsOwnerAndStopsOnAProblem() throws {
    let store = try TestStore()
    let steps = try parse("server-fault getTransactionInfo answer=500\nserver-fault nonsense answer=500\nserver-fault clear\n").get()
    var handed: [ServerFault] = []
    let runner = ScenarioRunner(queue: store.queue, json: false) { _ in }
    runner.serverFaults = { fault in
      handed.append(fault)
      if case .set("nonsense", _, _, _) = fault { return "Unknown App Store Server API endpoint 'nonsense'." }
      return nil
    }
    XCTAssertEqual(runner.run(steps), .aborted(line: 2, message: "Unknown App Store Server API endpoint 'nonsense'."))
    XCTAssertEqual(handed.count, 2)
  }

  func testWithoutAnOwnerTheLineStopsTheRun() throws {
    let store = try TestStore()
    let steps = try parse("server-fault all answer=429\n").get()
    guard case .aborted(1, let message) = ScenarioRunner(queue: store.queue, json: false, write: { _ in }).run(steps) else {
      return XCTFail("expected the run to stop")
    }
    XCTAssertTrue(message.contains("server-fault needs a data directory"), message)
  }
}
