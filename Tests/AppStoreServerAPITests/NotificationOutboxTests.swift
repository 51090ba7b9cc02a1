import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// The notification endpoints over the ledger's outbox: the test notification, its status, and the
/// history of what was sent (attempts recorded by hand, as the deliverer would).
final class NotificationOutboxTests: XCTestCase {
  private var store: TestStore!
  private var api: AppStoreServerAPI!
  private let tokens = Locked(0)

  override func setUpWithError() throws {
    store = try TestStore(environment: APIFixture.storeEnvironment(.sandbox))
    api = makeAPI(.sandbox)
    try store.queue.perform(.setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/hook"))
  }

  private func makeAPI(_ environment: ServerEnvironment) -> AppStoreServerAPI {
    let store = store!
    let tokens = tokens
    return AppStoreServerAPI(
      ledger: store.ledger, environment: environment, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start },
      perform: { command throws(EngineError) in
        try store.queue.refresh()
        return try store.queue.perform(command)
      },
      makeToken: { tokens.withLock { $0 += 1; return "token-\($0)" } })
  }

  private func post(_ path: String, _ body: String = "", query: [(String, String)] = [], to api: AppStoreServerAPI? = nil) -> APIResponse {
    (api ?? self.api).handle(
      APIRequest(method: "POST", path: path, query: query.map { (name: $0.0, value: $0.1) }, body: Data(body.utf8)))
  }

  /// Records one attempt for entry `sequence` with a payload naming `environment`.
  private func attempt(
    _ sequence: Int64, _ result: DeliveryAttempt.Result = .success, at date: Date = TestStore.start,
    state: OutboxEntry.State = .delivered, environment: String = "Sandbox"
  ) throws {
    var entry = try XCTUnwrap(try store.ledger.outbox(after: sequence - 1, limit: 1).first)
    entry.attempts.append(DeliveryAttempt(date: date, result: result, httpStatus: result == .success ? 200 : 500))
    entry.state = state
    entry.nextAttempt = nil
    entry.notificationUUID = "uuid-\(sequence)"
    entry.signedPayload = Self.payload(sequence: sequence, environment: environment)
    try store.ledger.recordDelivery(of: entry)
  }

  /// A structurally valid JWS whose payload says whose it is.
  static func payload(sequence: Int64, environment: String) -> String {
    func segment(_ text: String) -> String { Data(text.utf8).base64URLEncoded }
    let data = #"{"notificationUUID":"uuid-\#(sequence)","data":{"environment":"\#(environment)","bundleId":"\#(StoreEnvironment.defaultBundleID)"}}"#
    return "\(segment(#"{"alg":"ES256"}"#)).\(segment(data)).\(segment("sig"))"
  }

  func testRequestATestNotificationQueuesATestWithTheToken() throws {
    let response = post("/inApps/v1/notifications/test")
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"testNotificationToken":"token-1"}"#)
    let queued = try XCTUnwrap(store.ledger.outbox.last)
    XCTAssertEqual(queued.notificationType, .test)
    XCTAssertEqual(queued.testNotificationToken, "token-1")

    let status = "/inApps/v1/notifications/test/token-1"
    assertAPIError(api.handle(APIRequest(method: "GET", path: status)), 4_040_008)  // not attempted yet
    let sequence = Int64(store.ledger.outbox.count)
    try attempt(sequence, .unsuccessfulHTTPResponseCode, at: TestStore.start, state: .pending)
    try attempt(sequence, .success, at: TestStore.start.addingTimeInterval(3600))
    let answer = api.handle(APIRequest(method: "GET", path: status))
    XCTAssertEqual(answer.status, 200)
    XCTAssertEqual(json(answer)["signedPayload"] as? String, Self.payload(sequence: sequence, environment: "Sandbox"))
    let attempts = try XCTUnwrap(json(answer)["sendAttempts"] as? [[String: Any]])
    XCTAssertEqual(attempts.map { $0["sendAttemptResult"] as? String }, ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"])
    let start = SignedPayloads.milliseconds(TestStore.start)
    XCTAssertEqual(attempts.map { ($0["attemptDate"] as? NSNumber)?.int64Value }, [start, start + 3_600_000])
    assertAPIError(api.handle(APIRequest(method: "GET", path: "/inApps/v1/notifications/test/token-2")), 4_040_008)

    // The other environment has no URL, and does not see this one's test.
    let production = makeAPI(.production)
    assertAPIError(post("/inApps/v1/notifications/test", to: production), 4_040_007)
    assertAPIError(production.handle(APIRequest(method: "GET", path: status)), 4_040_008)
  }

  func testAURLOfAnotherEnvironmentThanTheStoresQueuesNothing() throws {
    // A Production server whose engine signs for Sandbox (serve's always signs for its own).
    try store.queue.perform(.setNotificationURL(environment: "Sandbox", url: nil))
    try store.queue.perform(.setNotificationURL(environment: "Production", url: "http://127.0.0.1:9/prod"))
    let before = store.ledger.outbox.count
    assertAPIError(post("/inApps/v1/notifications/test", to: makeAPI(.production)), 4_040_007)
    XCTAssertEqual(store.ledger.outbox.count, before)
  }

  func testClearingTheURLAnswersNotFoundAgain() throws {
    XCTAssertEqual(post("/inApps/v1/notifications/test").status, 200)
    try store.queue.perform(.setNotificationURL(environment: "Sandbox", url: nil))
    assertAPIError(post("/inApps/v1/notifications/test"), 4_040_007)
  }

  func testHistoryListsWhatWasSentPagedAndFiltered() throws {
    let bought = try (0..<23).map { _ in try store.buy(FixtureCatalog.coins) }
    for transaction in bought { try store.queue.finish(transaction.id) }
    let entries = try store.ledger.allNotifications()
    XCTAssertEqual(entries.count, 23)
    XCTAssertEqual(Set(entries.map(\.notification.notificationType)), [.oneTimeCharge])
    // 22 sent (two of them failed), one not yet attempted.
    for entry in entries.dropLast() {
      let failed = entry.sequence == 3 || entry.sequence == 7
      try attempt(entry.sequence, failed ? .timedOut : .success, state: failed ? .failed : .delivered)
    }
    let now = SignedPayloads.milliseconds(TestStore.start)
    let window = #""startDate":\#(now - 1000),"endDate":\#(now + 1)"#
    let history = "/inApps/v1/notifications/history"

    let first = post(history, "{\(window)}")
    XCTAssertEqual(first.status, 200)
    XCTAssertEqual(json(first)["hasMore"] as? Bool, true)
    let items = try XCTUnwrap(json(first)["notificationHistory"] as? [[String: Any]])
    XCTAssertEqual(items.count, 20)
    XCTAssertEqual(items.first?["signedPayload"] as? String, Self.payload(sequence: 1, environment: "Sandbox"))
    let token = try XCTUnwrap(json(first)["paginationToken"] as? String)
    let second = post(history, "{\(window)}", query: [("paginationToken", token)])
    XCTAssertEqual(json(second)["hasMore"] as? Bool, false)
    XCTAssertNil(json(second)["paginationToken"])
    XCTAssertEqual(
      (json(second)["notificationHistory"] as? [[String: Any]])?.map { $0["signedPayload"] as? String },
      [21, 22].map { Self.payload(sequence: $0, environment: "Sandbox") })

    func sequences(_ body: String) -> [Int64] {
      let response = post(history, body)
      XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
      return (json(response)["notificationHistory"] as? [[String: Any]] ?? []).compactMap {
        Int64((TestStore.payload(of: $0["signedPayload"] as? String)["notificationUUID"] as? String ?? "").dropFirst(5))
      }
    }
    XCTAssertEqual(sequences(#"{\#(window),"onlyFailures":true}"#), [3, 7])
    XCTAssertEqual(sequences(#"{\#(window),"onlyFailures":true,"notificationType":"ONE_TIME_CHARGE"}"#), [3, 7])
    XCTAssertEqual(sequences(#"{\#(window),"onlyFailures":true,"notificationType":"REFUND"}"#), [])
    XCTAssertEqual(
      sequences(#"{\#(window),"onlyFailures":true,"notificationType":"ONE_TIME_CHARGE","notificationSubtype":"INITIAL_BUY"}"#), [])
    XCTAssertEqual(sequences(#"{\#(window),"onlyFailures":true,"transactionId":"\#(bought[0].id)"}"#), [3, 7])
    // startDate inclusive, endDate exclusive.
    XCTAssertEqual(sequences(#"{"startDate":\#(now),"endDate":\#(now + 1),"onlyFailures":true}"#), [3, 7])
    XCTAssertEqual(sequences(#"{"startDate":\#(now - 1000),"endDate":\#(now),"onlyFailures":true}"#), [])
    assertAPIError(post(history, "{\(window)}", query: [("paginationToken", "bm9wZQ")]), 4_000_014)
    // Another environment's server sees none of them.
    XCTAssertEqual(json(post(history, "{\(window)}", to: makeAPI(.production)))["notificationHistory"] as? [String], [])
  }

  func testHistoryOfACustomerIsTheirsAlone() throws {
    let mine = try store.buy(FixtureCatalog.removeAds)
    try store.queue.signIn("other")
    let theirs = try store.buy(FixtureCatalog.removeAds)
    for entry in try store.ledger.allNotifications() { try attempt(entry.sequence) }
    let now = SignedPayloads.milliseconds(TestStore.start)
    for (id, account) in [(mine.id, "tester"), (theirs.id, "other")] {
      let response = post("/inApps/v1/notifications/history", #"{"startDate":\#(now - 1),"endDate":\#(now + 1),"transactionId":"\#(id)"}"#)
      let items = json(response)["notificationHistory"] as? [[String: Any]] ?? []
      let expected = try store.ledger.allNotifications().filter { $0.notification.account == account }.map(\.sequence)
      XCTAssertEqual(expected.count, 1)
      XCTAssertEqual(items.map { $0["signedPayload"] as? String }, expected.map { Self.payload(sequence: $0, environment: "Sandbox") })
    }
  }

  func testHistoryReadsPastTheOutboxsBatches() throws {
    let ledger = InMemoryLedgerStore()
    try ledger.commit((0..<1_050).map { _ in .putNotification(ServerNotification(notificationType: .test, date: TestStore.start)) })
    for var entry in try ledger.allNotifications() {
      let failed = entry.sequence == 700 || entry.sequence == 1_040
      entry.attempts = [DeliveryAttempt(date: TestStore.start, result: failed ? .noResponse : .success)]
      entry.state = failed ? .failed : .delivered
      entry.signedPayload = Self.payload(sequence: entry.sequence, environment: "Sandbox")
      try ledger.recordDelivery(of: entry)
    }
    let api = AppStoreServerAPI(ledger: ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start })
    let now = SignedPayloads.milliseconds(TestStore.start)
    func page(_ body: String, token: String? = nil) -> [String: Any] {
      json(post("/inApps/v1/notifications/history", body, query: token.map { [("paginationToken", $0)] } ?? [], to: api))
    }
    let failures = page(#"{"startDate":\#(now),"endDate":\#(now + 1),"onlyFailures":true}"#)
    XCTAssertEqual(
      (failures["notificationHistory"] as? [[String: Any]])?.map { $0["signedPayload"] as? String },
      [700, 1_040].map { Self.payload(sequence: $0, environment: "Sandbox") })
    XCTAssertEqual(failures["hasMore"] as? Bool, false)
    // Walk every page: 1,050 in 53 pages, each continuing where the last ended.
    var token: String?
    var seen = 0
    for _ in 0..<60 {
      let answer = page(#"{"startDate":\#(now),"endDate":\#(now + 1)}"#, token: token)
      seen += (answer["notificationHistory"] as? [Any])?.count ?? 0
      guard answer["hasMore"] as? Bool == true else { break }
      token = answer["paginationToken"] as? String
    }
    XCTAssertEqual(seen, 1_050)
  }

  func testWithoutAnEngineAURLIsNotEnough() throws {
    let bare = AppStoreServerAPI(ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start })
    XCTAssertEqual(post("/inApps/v1/notifications/test", to: bare).status, 404)
  }
}
