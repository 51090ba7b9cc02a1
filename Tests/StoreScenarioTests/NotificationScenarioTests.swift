import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// `notifications url`, `expect notification`, `expect notifications` and `expect delivered`.
final class NotificationScenarioTests: XCTestCase {
  private func parse(_ script: String) -> Result<[ScenarioStep], ScenarioIssues> {
    ScenarioParser(catalog: FixtureCatalog.make()).parse(script)
  }

  private func run(_ script: String, store: TestStore, configure: (ScenarioRunner) -> Void = { _ in }) throws -> (ScenarioOutcome, [String]) {
    var lines: [String] = []
    let runner = ScenarioRunner(queue: store.queue, json: false) { lines.append($0) }
    configure(runner)
    return (runner.run(try parse(script).get()), lines)
  }

  func testTheFormsParse() throws {
    let steps = try parse("""
      notifications url http://127.0.0.1:8080/hook
      notifications url off environment=Production
      expect notification SUBSCRIBED INITIAL_BUY
      expect notification EXPIRED none
      expect notification DID_RENEW
      expect notifications 3
      expect delivered
      expect delivered REFUND within=250ms
      """).get()
    XCTAssertEqual(steps.map(\.action), [
      .notificationURL("http://127.0.0.1:8080/hook", environment: nil),
      .notificationURL(nil, environment: "Production"),
      .expect(.notification(NotificationMatch(type: .subscribed, subtype: .exactly(.initialBuy)))),
      .expect(.notification(NotificationMatch(type: .expired, subtype: .none))),
      .expect(.notification(NotificationMatch(type: .didRenew))),
      .expect(.notifications(3)),
      .expect(.delivered(NotificationMatch(), within: .seconds(5))),
      .expect(.delivered(NotificationMatch(type: .refund), within: .milliseconds(250))),
    ])
  }

  func testBadArgumentsAreLocatedIssues() {
    guard case .failure(let found) = parse("""
      notifications url ftp://example.com/x
      notifications url http://127.0.0.1/x environment=Xcode
      notifications hook http://127.0.0.1/x
      expect notification SUBSCRIBE
      expect notification SUBSCRIBED INITIAL
      expect delivered within=forever
      expect notification
      """) else { return XCTFail("expected issues") }
    let text = found.issues.map(\.description)
    XCTAssertEqual(found.issues.map(\.line), [1, 2, 3, 4, 5, 6, 7])
    XCTAssertTrue(text[0].contains("Invalid notification URL 'ftp://example.com/x'"), text[0])
    XCTAssertTrue(text[1].contains("Invalid environment 'Xcode'; use Sandbox or Production."), text[1])
    XCTAssertTrue(text[2].contains("Unknown notifications setting 'hook'"), text[2])
    XCTAssertTrue(text[3].contains("Unknown notification type 'SUBSCRIBE'. Did you mean 'SUBSCRIBED'?"), text[3])
    XCTAssertTrue(text[4].contains("Unknown notification subtype 'INITIAL'"), text[4])
    XCTAssertTrue(text[5].contains("Invalid wait 'forever'"), text[5])
    XCTAssertTrue(text[6].contains("a notification type"), text[6])
  }

  func testTheURLIsSetForTheRunsEnvironmentAndNotificationsAreExpectedInOrder() throws {
    let store = try TestStore()
    let (outcome, lines) = try run("""
      expect notifications 0
      notifications url http://127.0.0.1:9/hook
      buy \(FixtureCatalog.monthly)
      advance P1M
      expect notification SUBSCRIBED INITIAL_BUY
      expect notification DID_RENEW none
      expect notifications 2
      notifications url off
      buy \(FixtureCatalog.coins)
      expect notifications 2
      """, store: store)
    XCTAssertEqual(outcome, .passed(steps: 10), lines.joined(separator: "\n"))
    XCTAssertEqual(store.ledger.outbox.map(\.notificationType), [.subscribed, .didRenew])
    XCTAssertEqual(try store.ledger.load().notificationURLs, [:], "off removes it")
  }

  func testAnExpectNotificationLooksOnlyAfterThePreviousMatch() throws {
    let store = try TestStore()
    let (outcome, _) = try run("""
      notifications url http://127.0.0.1:9/hook environment=Sandbox
      buy \(FixtureCatalog.monthly)
      advance P1M
      expect notification DID_RENEW
      expect notification SUBSCRIBED
      """, store: store)
    XCTAssertEqual(
      outcome,
      .assertionFailed(line: 5, message: "expected a SUBSCRIBED notification queued since the previous `expect notification`, but none was queued"))
    let (another, _) = try run("""
      buy \(FixtureCatalog.coins)
      expect notification REFUND
      """, store: store)
    XCTAssertEqual(
      another, .assertionFailed(line: 2, message: "expected a REFUND notification queued in the run, but the queued ones are ONE_TIME_CHARGE"))
  }

  func testExpectDeliveredWaitsForTheServingProcess() throws {
    let store = try TestStore()
    try store.queue.perform(.setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/hook"))
    _ = try store.buy(FixtureCatalog.coins)  // before the run: not the run's to wait for
    var pauses = 0
    let (outcome, _) = try run("""
      buy \(FixtureCatalog.coins)
      buy \(FixtureCatalog.removeAds)
      expect delivered within=1s
      expect delivered ONE_TIME_CHARGE
      """, store: store) { runner in
      runner.notificationOutbox = store.ledger
      // The deliverer, at the third read: every pending entry after the first gets a 200.
      runner.pause = { _ in
        pauses += 1
        guard pauses == 2 else { return }
        for var entry in (try? store.ledger.outbox(after: 1, limit: 10)) ?? [] {
          entry.state = .delivered
          entry.attempts = [DeliveryAttempt(date: TestStore.start, result: .success, httpStatus: 200)]
          try? store.ledger.recordDelivery(of: entry)
        }
      }
    }
    XCTAssertEqual(outcome, .passed(steps: 4))
    XCTAssertEqual(pauses, 2, "the second expect found them delivered at once")
    XCTAssertEqual(try store.ledger.allNotifications().map(\.state), [.pending, .delivered, .delivered])
  }

  func testExpectDeliveredSaysWhatIsPendingOrFailed() throws {
    let store = try TestStore()
    var pauses = 0
    let (pending, _) = try run("""
      notifications url http://127.0.0.1:9/hook
      buy \(FixtureCatalog.coins)
      expect delivered within=100ms
      """, store: store) { runner in
      runner.notificationOutbox = store.ledger
      runner.pause = { _ in pauses += 1 }
    }
    XCTAssertEqual(
      pending, .assertionFailed(line: 3, message: "expected notifications to be delivered within 0.1 seconds, but #1 ONE_TIME_CHARGE (not attempted) is still pending"))
    XCTAssertEqual(pauses, 5, "a bounded number of reads, 20 ms apart")

    var entry = try XCTUnwrap(try store.ledger.allNotifications().first)
    entry.state = .failed
    entry.attempts = [DeliveryAttempt(date: TestStore.start, result: .unsuccessfulHTTPResponseCode, httpStatus: 500)]
    try store.ledger.recordDelivery(of: entry)
    let (failed, _) = try run("buy \(FixtureCatalog.coins)\nexpect delivered\n", store: store) { runner in
      runner.notificationOutbox = InMemoryLedgerStoreView(store.ledger, from: 0)
      runner.pause = { _ in XCTFail("a failed entry is reported at once") }
    }
    XCTAssertEqual(
      failed,
      .assertionFailed(line: 2, message: "expected notifications to be delivered, but #1 ONE_TIME_CHARGE (1 attempt, last UNSUCCESSFUL_HTTP_RESPONSE_CODE 500) failed for good"))

    let (none, _) = try run("notifications url off\nbuy \(FixtureCatalog.coins)\nexpect delivered\n", store: store) { runner in
      runner.notificationOutbox = store.ledger
    }
    XCTAssertEqual(none, .assertionFailed(line: 3, message: "expected notifications to be delivered, but the run queued none (is a notification URL set?)"))

    let (unwired, _) = try run("expect delivered\n", store: store)
    guard case .aborted(1, let message) = unwired else { return XCTFail("\(unwired)") }
    XCTAssertTrue(message.contains("needs the data directory's outbox"), message)
  }
}

/// An outbox that hides where the run starts (so a run sees an older failed entry as its own).
private final class InMemoryLedgerStoreView: NotificationOutbox {
  let ledger: InMemoryLedgerStore
  let start: Int64
  private var first = true

  init(_ ledger: InMemoryLedgerStore, from start: Int64) {
    self.ledger = ledger
    self.start = start
  }

  func outbox(after sequence: Int64, limit: Int) throws(LedgerError) -> [OutboxEntry] {
    // The run reads its start first: answer nothing, so it starts at 0.
    if first {
      first = false
      return []
    }
    return try ledger.outbox(after: sequence, limit: limit)
  }

  func recordDelivery(of entry: OutboxEntry) throws(LedgerError) { try ledger.recordDelivery(of: entry) }
  func redeliver(_ sequence: Int64, at date: Date) throws(LedgerError) { try ledger.redeliver(sequence, at: date) }
}
