import Foundation
import StorefrontProcessTestSupport
import XCTest

/// `storefront serve --notify` delivering what `storefront run` queues on the same data directory to a
/// real receiver: every type and subtype a scenario (and the extension endpoints) can cause, in order
/// per original transaction, each `signedPayload` accepted by Apple's `SignedDataVerifier`, agreeing
/// with the ledger; and a failing receiver retried on the virtual clock in Production, once in Sandbox.
final class ServeNotificationDeliveryTests: XCTestCase {
  static let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"
  static let yearly = "com.jake.sample.ExInAppPurchase.premium.yearly"
  static let coins = "com.jake.sample.ExInAppPurchase.coins100"
  static let coins500 = "com.jake.sample.ExInAppPurchase.coins500"
  static let shopping = "com.jake.sample.ExInAppPurchase.shopping"
  static let bundleID = "com.example.storefront"

  func testEveryNotificationAScenarioCausesIsDeliveredInOrderAndVerifiesWithApple() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let receiver = try WebhookReceiver()
    defer { receiver.stop() }
    let (serve, address) = try DeliveryHarness.startServe(["--notify", receiver.url, "--seed", "5"], data: data, in: directory)
    try DeliveryHarness.run(
      """
      account alice
      set dialogs off
      buy \(Self.coins)
      finish last
      refund last
      buy \(Self.coins500)
      request-refund last answer=decline reason=1
      buy \(Self.monthly)
      finish last
      renew last
      auto-renew last off
      auto-renew last on
      price-increase \(Self.monthly) request
      price-increase \(Self.monthly) accept
      expire last
      buy \(Self.monthly)
      finish last
      buy \(Self.yearly)
      finish all
      billing-issue on
      grace on
      advance 400d
      resolve-billing last
      grace off
      advance 400d
      advance 100d
      family alice bob
      buy \(Self.shopping)
      finish last
      refund last
      account carol
      buy \(Self.yearly)
      finish last
      buy \(Self.monthly)
      finish all
      buy \(Self.yearly)
      finish all
      buy \(Self.yearly) offer=\(Self.yearly).comeback signed
      finish all
      rescind-consent

      """, data: data, in: directory)
    // The extensions come from the App Store Server API, through Apple's client.
    let created = try StorefrontBinary.run(["keys", "create", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(created.status, 0, created.stderr)
    let key = try XCTUnwrap(JSONSerialization.jsonObject(with: created.stdoutData) as? [String: Any])
    let carolYearly = try XCTUnwrap(
      try DeliveryHarness.outbox(data, in: directory).last { $0["notificationType"] as? String == "OFFER_REDEEMED" }?["originalTransactionId"] as? String)
    func call(_ name: String, _ endpoint: String, _ argument: String, _ body: [String: Any]) -> [String: Any] {
      [
        "name": name, "key_file": key["privateKeyFile"] ?? "", "key_id": key["keyId"] ?? "", "issuer_id": key["issuerId"] ?? "",
        "endpoint": endpoint, "argument": argument, "body": body,
      ]
    }
    let input = try JSONSerialization.data(withJSONObject: [
      "base_url": "http://\(address)", "bundle_id": Self.bundleID, "calls": [
        call("extend", "extend_subscription_renewal_date", carolYearly, ["extendByDays": 3, "extendReasonCode": 1, "requestIdentifier": "one"]),
        call("mass", "extend_renewal_date_for_all_active_subscribers", "", [
          "extendByDays": 2, "extendReasonCode": 3, "requestIdentifier": "mass-1", "productId": Self.yearly, "storefrontCountryCodes": ["USA"],
        ]),
      ],
    ])
    let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/call_server_api.py").path
    let client = try ChildProcess.run(apple.python.path, [script], stdin: input, timeout: 120)
    XCTAssertEqual(client.status, 0, client.stderr)

    let entries = try DeliveryHarness.waitForOutbox(data, in: directory) { entries in
      !entries.isEmpty && entries.allSatisfy { $0["state"] as? String == "delivered" }
        && entries.contains { $0["notificationType"] as? String == "RENEWAL_EXTENSION" }
    }
    XCTAssertTrue(receiver.waitForRequests(entries.count))
    let requests = receiver.requests
    XCTAssertEqual(requests.count, entries.count, "each delivered once")
    let received = requests.map { DeliveryHarness.payload(DeliveryHarness.signedPayload($0)) }
    XCTAssertEqual(Set(received.compactMap { $0["notificationUUID"] as? String }).count, entries.count, "a UUID each")

    // Every kind the scenario can cause, in order per original transaction.
    let kinds = Set(entries.map { DeliveryHarness.kind($0["notificationType"], $0["subtype"]) })
    for expected in [
      "ONE_TIME_CHARGE", "REFUND", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/RESUBSCRIBE", "DID_RENEW",
      "DID_RENEW/BILLING_RECOVERY", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED",
      "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "EXPIRED/VOLUNTARY", "EXPIRED/BILLING_RETRY", "DID_CHANGE_RENEWAL_PREF/UPGRADE",
      "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "DID_CHANGE_RENEWAL_PREF", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "DID_FAIL_TO_RENEW",
      "GRACE_PERIOD_EXPIRED", "REVOKE", "OFFER_REDEEMED", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/SUMMARY", "RESCIND_CONSENT",
    ] {
      XCTAssertTrue(kinds.contains(expected), "\(expected) was not caused: \(kinds.sorted())")
    }
    let bySequence = Dictionary(uniqueKeysWithValues: entries.map { (($0["notificationUUID"] as? String) ?? "", $0) })
    var chains: [String: [Int]] = [:]
    for payload in received {
      let entry = try XCTUnwrap(bySequence[payload["notificationUUID"] as? String ?? ""], "a UUID the outbox does not have")
      XCTAssertEqual(DeliveryHarness.kind(payload["notificationType"], payload["subtype"]), DeliveryHarness.kind(entry["notificationType"], entry["subtype"]))
      if let original = entry["originalTransactionId"] as? String { chains[original, default: []].append(entry["sequence"] as? Int ?? 0) }
    }
    for (original, sequences) in chains {
      XCTAssertEqual(sequences, sequences.sorted(), "chain \(original) out of order")
    }

    // Apple's verifier: each notification, and the transaction and renewal info inside it.
    let root = directory.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", data], in: directory).status, 0)
    var cases: [AppleVerifier.Case] = []
    for (index, request) in requests.enumerated() {
      cases.append(.init(name: "n\(index)", kind: .notification, jws: DeliveryHarness.signedPayload(request), rootDER: root, bundleID: Self.bundleID))
      let inner = received[index]["data"] as? [String: Any] ?? [:]
      if let jws = inner["signedTransactionInfo"] as? String {
        cases.append(.init(name: "t\(index)", kind: .transaction, jws: jws, rootDER: root, bundleID: Self.bundleID))
      }
      if let jws = inner["signedRenewalInfo"] as? String {
        cases.append(.init(name: "r\(index)", kind: .renewal, jws: jws, rootDER: root, bundleID: Self.bundleID))
      }
      // RESCIND_CONSENT: `appData` carries the customer's signed app transaction instead of `data`.
      if let jws = (received[index]["appData"] as? [String: Any])?["signedAppTransactionInfo"] as? String {
        cases.append(.init(name: "a\(index)", kind: .appTransaction, jws: jws, rootDER: root, bundleID: Self.bundleID))
      }
    }
    let verdicts = try apple.verify(cases)
    let ledger = try StorefrontBinary.run(["transactions", "--json", "--all", "--data-dir", data], in: directory)
    let rows = try ledger.stdout.split(separator: "\n").compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    let products = Dictionary(rows.map { ($0["transactionId"] as? String ?? "", $0["productId"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
    for (index, payload) in received.enumerated() {
      let verdict = try XCTUnwrap(verdicts["n\(index)"])
      XCTAssertEqual(verdict.status, 0, "\(payload["notificationType"] ?? ""): \(verdict.cause ?? "")")
      XCTAssertEqual(verdict.decoded?.notificationUUID, payload["notificationUUID"] as? String)
      XCTAssertEqual(verdict.decoded?.version, "2.0")
      XCTAssertEqual(verdict.decoded?.environment, "Sandbox")
      XCTAssertNil(verdict.decoded?.appAppleId, "no appAppleId in Sandbox")
      let entry = bySequence[payload["notificationUUID"] as? String ?? ""] ?? [:]
      if let transaction = verdicts["t\(index)"] {
        XCTAssertEqual(transaction.status, 0, transaction.cause ?? "")
        XCTAssertEqual(transaction.decoded?.transactionId, entry["transactionId"] as? String, "the outbox's transaction")
        XCTAssertEqual(transaction.decoded?.productId, products[transaction.decoded?.transactionId ?? ""], "the ledger's product")
      } else {
        XCTAssertTrue(["RENEWAL_EXTENSION", "RESCIND_CONSENT"].contains(payload["notificationType"] as? String), "\(payload) has no transaction")
      }
      if payload["notificationType"] as? String == "RESCIND_CONSENT" {
        let app = try XCTUnwrap(verdicts["a\(index)"], "RESCIND_CONSENT without appData.signedAppTransactionInfo")
        XCTAssertEqual(app.status, 0, app.cause ?? "")
        XCTAssertEqual(app.decoded?.bundleId, Self.bundleID)
      }
      if let renewal = verdicts["r\(index)"] {
        XCTAssertEqual(renewal.status, 0, renewal.cause ?? "")
        XCTAssertEqual(renewal.decoded?.originalTransactionId, entry["originalTransactionId"] as? String)
      }
    }
    try DeliveryHarness.stop(serve)
  }

  func testAFailingReceiverGetsProductionRetriesAsTheClockAdvancesThenNoMore() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let receiver = try WebhookReceiver(behavior: .status(500))
    defer { receiver.stop() }
    let (serve, _) = try DeliveryHarness.startServe(
      ["--environment", "Production", "--notify", receiver.url, "--app-apple-id", "987654", "--notify-timeout", "400ms"], data: data,
      in: directory)
    let production = ["--environment", "Production"]
    try DeliveryHarness.run("account dave\nset dialogs off\nbuy \(Self.coins)\n", production, data: data, in: directory)
    XCTAssertTrue(receiver.waitForRequests(1))
    // Each retry comes when the clock reaches it, failing another way each time.
    let steps: [(advance: String, behavior: WebhookReceiver.Behavior)] = [
      ("59m", .status(500)), ("1m", .closeEarly), ("12h", .hang), ("24h", .status(503)), ("48h", .status(500)), ("72h", .status(404)),
    ]
    var attempts = 1
    for (advance, behavior) in steps {
      receiver.setBehavior(behavior)
      try DeliveryHarness.run("advance \(advance)\n", production, data: data, in: directory)
      if advance == "59m" {
        XCTAssertEqual(try DeliveryHarness.outbox(data, in: directory).first?["attempts"].map { ($0 as? [Any])?.count }, 1, "not due before +1 h")
        continue
      }
      attempts += 1
      XCTAssertTrue(receiver.waitForRequests(attempts), "attempt \(attempts) after advance \(advance)")
      _ = try DeliveryHarness.waitForOutbox(data, in: directory) { ($0.first?["attempts"] as? [Any])?.count == attempts }
    }
    let entry = try XCTUnwrap(try DeliveryHarness.outbox(data, in: directory).first)
    XCTAssertEqual(entry["state"] as? String, "failed")
    XCTAssertNil(entry["nextAttempt"])
    let attemptsRecorded = try XCTUnwrap(entry["attempts"] as? [[String: Any]])
    XCTAssertEqual(attemptsRecorded.map { $0["result"] as? String }, [
      "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "PREMATURE_CLOSE", "TIMED_OUT", "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE",
      "UNSUCCESSFUL_HTTP_RESPONSE_CODE",
    ])
    XCTAssertEqual(attemptsRecorded.map { $0["httpStatus"] as? Int }, [500, nil, nil, 503, 500, 404])
    XCTAssertEqual(attemptsRecorded.map { $0["date"] as? String }, [
      "2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z", "2026-01-01T13:00:00Z", "2026-01-02T13:00:00Z", "2026-01-04T13:00:00Z",
      "2026-01-07T13:00:00Z",
    ])
    // Then no more: a later notification is delivered, and nothing of the failed one came before it.
    receiver.setBehavior(.status(200))
    try DeliveryHarness.run("set dialogs off\nadvance 100h\nbuy \(Self.coins)\n", production, data: data, in: directory)
    XCTAssertTrue(receiver.waitForRequests(7))
    let requests = receiver.requests
    guard requests.count == 7 else { return XCTFail("\(requests.count) requests: \(try DeliveryHarness.outbox(data, in: directory))") }
    XCTAssertEqual(Set(requests.prefix(6).map(\.body)).count, 1, "every retry sends the same bytes")
    XCTAssertNotEqual(requests[6].body, requests[0].body)

    let root = directory.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", data], in: directory).status, 0)
    var cases = [0, 6].map { index in
      AppleVerifier.Case(
        name: "n\(index)", kind: .notification, jws: DeliveryHarness.signedPayload(requests[index]), rootDER: root, bundleID: Self.bundleID,
        environment: "PRODUCTION")
    }
    cases = cases.map { var withID = $0; withID.appAppleID = 987_654; return withID }
    var wrongID = cases[0]
    wrongID.name = "wrong app id"
    wrongID.appAppleID = 1
    let verdicts = try apple.verify(cases + [wrongID])
    XCTAssertEqual(verdicts["n0"]?.status, 0, verdicts["n0"]?.cause ?? "")
    XCTAssertEqual(verdicts["n6"]?.status, 0, verdicts["n6"]?.cause ?? "")
    XCTAssertEqual(verdicts["n0"]?.decoded?.appAppleId, 987_654)
    XCTAssertEqual(verdicts["n0"]?.decoded?.environment, "Production")
    XCTAssertEqual(verdicts["n0"]?.decoded?.notificationType, "ONE_TIME_CHARGE")
    XCTAssertNotEqual(verdicts["wrong app id"]?.status, 0, "Apple's check of appAppleId is real")
    try DeliveryHarness.stop(serve)
  }

  func testSandboxTriesOnceAndTheURLCommandSetsAndClears() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let receiver = try WebhookReceiver(behavior: .status(500))
    defer { receiver.stop() }
    let set = try StorefrontBinary.run(["notifications", "url", receiver.url, "--data-dir", data], in: directory)
    XCTAssertEqual(set.status, 0, set.stderr)
    let bad = try StorefrontBinary.run(["notifications", "url", "ftp://user:secret@example.com", "--data-dir", data], in: directory)
    XCTAssertEqual(bad.status, 64, bad.summary)
    XCTAssertFalse(bad.stderr.contains("secret"), bad.stderr)
    let shown = try StorefrontBinary.run(["notifications", "url", "--data-dir", data], in: directory)
    XCTAssertEqual(shown.stdout, "Sandbox: \(receiver.url)\nProduction: none\n")
    let (serve, _) = try DeliveryHarness.startServe([], data: data, in: directory)
    try DeliveryHarness.run("account erin\nset dialogs off\nbuy \(Self.coins)\n", data: data, in: directory)
    XCTAssertTrue(receiver.waitForRequests(1))
    var entries = try DeliveryHarness.waitForOutbox(data, in: directory) { $0.first?["state"] as? String == "failed" }
    XCTAssertEqual((entries.first?["attempts"] as? [Any])?.count, 1)
    receiver.setBehavior(.status(200))
    try DeliveryHarness.run("set dialogs off\nadvance 2h\nbuy \(Self.coins)\n", data: data, in: directory)
    XCTAssertTrue(receiver.waitForRequests(2))
    entries = try DeliveryHarness.waitForOutbox(data, in: directory) { $0.count == 2 && $0[1]["state"] as? String == "delivered" }
    XCTAssertEqual((entries[0]["attempts"] as? [Any])?.count, 1, "Sandbox does not retry")
    XCTAssertEqual(receiver.requests.count, 2)
    let cleared = try StorefrontBinary.run(["notifications", "url", "--clear", "--data-dir", data], in: directory)
    XCTAssertEqual(cleared.status, 0, cleared.stderr)
    try DeliveryHarness.run("set dialogs off\nbuy \(Self.coins)\n", data: data, in: directory)
    XCTAssertEqual(try DeliveryHarness.outbox(data, in: directory).count, 2, "nothing queued without a URL")
    let listing = try StorefrontBinary.run(["notifications", "--data-dir", data], in: directory)
    XCTAssertTrue(listing.stdout.contains("1: UNSUCCESSFUL_HTTP_RESPONSE_CODE 500"), listing.stdout)
    try DeliveryHarness.stop(serve)
  }
}
