import Foundation
import SimulatedApp
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// `app finishes …` lines and the runner's app: finishing at once, or after the app's server (a
/// stand-in closure here; the real client is tested through the binary) answers 2xx.
final class AppFinishesScenarioTests: XCTestCase {
  private let url = "http://127.0.0.1:9/verify"

  private func run(
    _ script: String, store: TestStore, json: Bool = false, configure: (ScenarioRunner) -> Void = { _ in }
  ) throws -> (ScenarioOutcome, [String]) {
    var lines: [String] = []
    let runner = ScenarioRunner(queue: store.queue, json: json) { lines.append($0) }
    configure(runner)
    return (runner.run(try ScenarioParser(catalog: FixtureCatalog.make()).parse(script).get()), lines)
  }

  func testTheFormsParseAndBadOnesSayWhatToWrite() throws {
    let parser = ScenarioParser(catalog: FixtureCatalog.make())
    let steps = try parser.parse("app finishes manually\napp finishes at-once\napp finishes after-server \(url)\n").get()
    XCTAssertEqual(steps.map(\.action), [.appFinishes(.manually), .appFinishes(.atOnce), .appFinishes(.afterServer(url: url))])
    for (line, message) in [
      ("app finishes soon", "use manually, at-once or after-server URL"), ("app finishes after-server", "needs the app's server URL"),
      ("app finishes after-server ftp://x/y", "use an http or https URL"), ("app quits", "Unknown app setting"),
    ] {
      guard case .failure(let issues) = parser.parse(line) else { return XCTFail("\(line) parsed") }
      XCTAssertTrue(issues.issues.first?.message.contains(message) == true, "\(line): \(issues.issues)")
    }
  }

  func testAtOnceFinishesPurchasesRestoresAndFailures() throws {
    let store = try TestStore()
    let (outcome, lines) = try run(
      """
      app finishes at-once
      buy \(FixtureCatalog.removeAds)
      expect unfinished 0
      restore
      expect unfinished 0
      fail purchase paymentInvalid
      buy \(FixtureCatalog.coins)
      expect unfinished 0
      """, store: store)
    XCTAssertEqual(outcome, .passed(steps: 8), lines.joined(separator: "\n"))
    XCTAssertEqual(lines.filter { $0.contains("removedTransactions") }.count, 3, lines.joined(separator: "\n"))
  }

  func testAfterServerFinishesOnlyOnA2xxAndAsksAgainAfterARelaunch() throws {
    let store = try TestStore()
    var statuses: [Int?] = [500, nil, 200]
    var calls: [AppServerRequest] = []
    let (outcome, lines) = try run(
      """
      app finishes after-server \(url)
      buy \(FixtureCatalog.coins)
      expect unfinished 1
      relaunch
      expect unfinished 1
      relaunch
      expect unfinished 0
      """, store: store, json: true
    ) { runner in
      runner.receipt = { account in Data("receipt of \(account)".utf8) }
      runner.appServer = { request in
        calls.append(request)
        let status = statuses.removeFirst()
        return AppServerAnswer(request: request, status: status, milliseconds: 1, error: status == nil ? "Timeout was reached" : nil)
      }
    }
    XCTAssertEqual(outcome, .passed(steps: 7), lines.joined(separator: "\n"))
    XCTAssertEqual(calls.count, 3)
    XCTAssertEqual(Set(calls.map(\.transactionID)), ["1000000001"])
    XCTAssertEqual(calls.first?.receipt, Data("receipt of tester".utf8).base64EncodedString())
    let answers = lines.filter { $0.contains(#""event":"appServerCall""#) }
    XCTAssertEqual(answers.count, 3)
    XCTAssertTrue(answers[0].contains(#""finishes":false"#) && answers[0].contains(#""status":500"#), answers[0])
    XCTAssertTrue(answers[1].contains(#""error":"Timeout was reached""#), answers[1])
    XCTAssertTrue(answers[2].contains(#""finishes":true"#), answers[2])
    XCTAssertEqual(lines.filter { $0.contains(#""event":"transactionRemoved""#) }.count, 1)
  }

  func testManuallyIsTheDefaultAndAfterServerNeedsAClient() throws {
    let store = try TestStore()
    let (outcome, _) = try run("buy \(FixtureCatalog.coins)\nexpect unfinished 1\n", store: store)
    XCTAssertEqual(outcome, .passed(steps: 2))
    let (refused, _) = try run("app finishes after-server \(url)\n", store: try TestStore())
    guard case .aborted(let line, let message) = refused else { return XCTFail("\(refused)") }
    XCTAssertEqual(line, 1)
    XCTAssertTrue(message.contains("storefront run"), message)
  }
}
