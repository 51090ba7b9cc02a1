import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

final class ScenarioTests: XCTestCase {
  typealias F = FixtureCatalog

  func run(_ script: String, json: Bool = false, store: TestStore? = nil) throws -> (ScenarioOutcome, [String]) {
    let store = try store ?? TestStore(account: nil, dialogs: true)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse(script).get()
    var lines: [String] = []
    let outcome = ScenarioRunner(queue: store.queue, json: json) { lines.append($0) }.run(steps)
    return (outcome, lines)
  }

  func testSeedFlowBuyConfirmFinishWithAssertions() throws {
    let (outcome, lines) = try run("""
      # The seeds' flow: sign in, load products, buy Remove Ads, deliver, finish.
      account jake password=hunter2
      request \(F.removeAds) com.bogus.id
      buy \(F.removeAds)
      expect prompt confirm
      confirm
      expect state last purchased
      expect owned \(F.removeAds)
      expect unfinished 1
      finish last
      expect unfinished 0
      finish last
      expect misuse alreadyFinished
      """)
    XCTAssertEqual(outcome, .passed(steps: 12))
    XCTAssertTrue(lines.contains { $0.contains("productsResponse") && $0.contains("invalidProductIdentifiers=[\"com.bogus.id\"]") || $0.contains("com.bogus.id") })
    XCTAssertTrue(lines.contains { $0.contains("updatedTransactions: \(F.removeAds) purchased") })
    XCTAssertTrue(lines.contains { $0.contains("error: Transaction") && $0.contains("already finished") })
  }

  func testJSONEventsCarryTheRequiredFields() throws {
    let (outcome, lines) = try run("""
      account jake
      set dialogs off
      buy \(F.coins) quantity=2
      set dialogs on
      buy \(F.coins)
      cancel
      """, json: true)
    XCTAssertEqual(outcome, .passed(steps: 6))
    let objects = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    let updates = objects.filter { $0["event"] as? String == "transactionUpdated" }
    XCTAssertEqual(updates.map { $0["state"] as? String }, ["purchasing", "purchased", "purchasing", "failed"])
    XCTAssertEqual(updates[1]["quantity"] as? Int, 2)
    XCTAssertEqual(updates[1]["transactionId"] as? String, "1000000001")
    XCTAssertEqual(updates[1]["originalTransactionId"] as? String, "1000000001")
    XCTAssertEqual(TestStore.payload(of: updates[1]["signedTransaction"] as? String)["transactionId"] as? String, "1000000001")
    XCTAssertEqual((updates[3]["error"] as? [String: Any])?["code"] as? Int, 2)
    // B3: no transactionIdentifier or date while purchasing or once failed; the queue handle instead.
    for undefined in [updates[0], updates[2], updates[3]] {
      XCTAssertNil(undefined["transactionId"])
      XCTAssertNil(undefined["originalTransactionId"])
      XCTAssertNil(undefined["purchaseDate"])
      XCTAssertNotNil(undefined["queueId"] as? String)
    }
    XCTAssertEqual(updates[1]["queueId"] as? String, "1000000001")
    XCTAssertEqual((updates[3]["error"] as? [String: Any])?["name"] as? String, "paymentCancelled")
    XCTAssertNil(updates[3]["signedTransaction"])
  }

  func testFailedAssertionSaysExpectedAndActual() throws {
    let (outcome, _) = try run("""
      account jake
      set dialogs off
      buy \(F.coins)
      expect state last failed
      """)
    XCTAssertEqual(outcome, .assertionFailed(line: 4, message: "expected transaction 1000000001 (\(F.coins)) to be failed, but it is purchased"))
  }

  func testParseErrorsAreAllReportedWithLineAndColumn() {
    let parser = ScenarioParser(catalog: F.make())
    let script = """
      account jake
      by \(F.coins)
      store-payment com.example.coins10
      advance 5x
      set ask-to-by on
      buy \(F.coins) quantity=0
      expect state last purchsed
      finish
      """
    guard case .failure(let issues) = parser.parse(script) else { return XCTFail("expected issues") }
    XCTAssertEqual(issues.issues.map(\.description), [
      "2:1: Unknown verb 'by'. Did you mean 'buy'?",
      "3:15: Unknown product 'com.example.coins10'; it is not in the catalog. Did you mean 'com.example.coins100'?",
      "4:9: Invalid duration '5x'; use 30s, 5m, 2h, 70d, 2w or ISO 8601 like P1M.",
      "5:5: Unknown setting 'ask-to-by'. Did you mean 'ask-to-buy'?",
      "6:35: Invalid quantity '0'; use a whole number from 1.",
      "7:19: Unknown state 'purchsed'; use purchasing, purchased, failed, restored or deferred.",
      "8:8: 'finish' needs a transaction id, 'last' or a product id.",
    ])
  }

  func testDurations() throws {
    let start = TestStore.start
    XCTAssertEqual(ScenarioDuration("30s")?.after(start), start.addingTimeInterval(30))
    XCTAssertEqual(ScenarioDuration("70d")?.after(start), start.addingTimeInterval(70 * 86_400))
    XCTAssertEqual(ScenarioDuration("PT1H30M")?.after(start), start.addingTimeInterval(5400))
    let feb = try XCTUnwrap(ScenarioDuration("P1M")?.after(start))
    XCTAssertEqual(feb, start.addingTimeInterval(31 * 86_400))
    XCTAssertNil(ScenarioDuration("P"))
    XCTAssertNil(ScenarioDuration("5x"))
    XCTAssertNil(ScenarioDuration("PT"))
  }

  func testAskToBuyRestoreAndRelaunchScenario() throws {
    let (outcome, _) = try run("""
      account kid
      set dialogs off
      set ask-to-buy on
      buy \(F.removeAds)
      expect state last deferred
      approve last after=30s
      advance 29s
      expect state last deferred
      advance 1s
      expect state last purchased
      relaunch
      expect unfinished 1
      finish all
      restore
      expect restored 1
      expect state last restored
      finish last
      relaunch
      expect unfinished 0
      """)
    XCTAssertEqual(outcome, .passed(steps: 19))
  }

  func testAYearOfAMonthlySubscription() throws {
    let (outcome, lines) = try run("""
      account sub
      set dialogs off
      buy \(F.monthly)
      expect expires last 2026-01-08T00:00:00Z
      advance P1Y
      expect status \(F.monthly) subscribed
      auto-renew last off
      advance P2M
      expect status \(F.monthly) expired
      expect not-owned \(F.monthly)
      """, json: true)
    XCTAssertEqual(outcome, .passed(steps: 10))
    let renewals = lines.filter { $0.contains("\"state\":\"purchased\"") && $0.contains("\"reason\":\"renewal\"") }
    XCTAssertEqual(renewals.count, 12)  // 8 Jan (trial ends) through 8 Dec
  }

  func testSameScenarioSameOutput() throws {
    let script = "account a\nset dialogs off\nbuy \(F.monthly)\nadvance P3M\nrefund last\n"
    XCTAssertEqual(try run(script, json: true).1, try run(script, json: true).1)
  }
}
