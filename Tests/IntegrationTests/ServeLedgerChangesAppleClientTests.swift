import Foundation
import StorefrontProcessTestSupport
import StorefrontTestSupport
import XCTest

/// The endpoints that change the ledger, driven through the real `storefront serve --environment
/// Production` by Apple's Python client: each answer parses in Apple's models, the change is in the
/// ledger (`storefront transactions --json`), and the re-signed transaction passes Apple's
/// `SignedDataVerifier` for Production.
final class ServeLedgerChangesAppleClientTests: XCTestCase {
  private static let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"
  private static let coins = "com.jake.sample.ExInAppPurchase.coins100"


  private func listing(_ data: String, in directory: TemporaryDirectory) throws -> [[String: Any]] {
    let result = try StorefrontBinary.run(["transactions", "--json", "--all", "--data-dir", data], in: directory)
    XCTAssertEqual(result.status, 0, result.stderr)
    return try result.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
  }


  func testExtendMassExtendTokenConsumptionFinishAndOrderLookupInProduction() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let created = try StorefrontBinary.run(["keys", "create", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(created.status, 0, created.stderr)
    let key = try XCTUnwrap(JSONSerialization.jsonObject(with: created.stdoutData) as? [String: Any])

    let scenario = directory.path("buy.scenario")
    try Data("""
      account backend
      set dialogs off
      buy \(Self.monthly)
      buy \(Self.coins)

      """.utf8).write(to: URL(fileURLWithPath: scenario))
    let run = try StorefrontBinary.run(["run", scenario, "--environment", "Production", "--data-dir", data], in: directory)
    XCTAssertEqual(run.status, 0, run.summary)
    let rows = try listing(data, in: directory)
    let monthly = try XCTUnwrap(rows.first { $0["productId"] as? String == Self.monthly })
    let coins = try XCTUnwrap(rows.first { $0["productId"] as? String == Self.coins })
    let monthlyID = try XCTUnwrap(monthly["transactionId"] as? String)
    let coinsID = try XCTUnwrap(coins["transactionId"] as? String)
    let orderID = try XCTUnwrap(monthly["orderId"] as? String)
    XCTAssertEqual(orderID.count, 10)
    XCTAssertEqual(coins["finished"] as? Bool, false)
    let expiry = try XCTUnwrap(TestStore.payload(of: monthly["signedTransaction"] as? String)["expiresDate"] as? NSNumber).int64Value

    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(
      ["serve", "--listen", "127.0.0.1:0", "--environment", "Production", "--ready-file", fifo, "--data-dir", data], in: directory)
    let address = try ReadyFile.address(fromFIFO: fifo)

    let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    func call(_ name: String, _ endpoint: String, _ argument: String = "", _ body: [String: Any] = [:]) -> [String: Any] {
      [
        "name": name, "key_file": key["privateKeyFile"] ?? "", "key_id": key["keyId"] ?? "", "issuer_id": key["issuerId"] ?? "",
        "endpoint": endpoint, "argument": argument, "body": body,
      ]
    }
    let calls = [
      call("order", "look_up_order_id", orderID),
      call("extend", "extend_subscription_renewal_date", monthlyID, ["extendByDays": 3, "extendReasonCode": 1, "requestIdentifier": "req-1"]),
      call("mass", "extend_renewal_date_for_all_active_subscribers", "", [
        "extendByDays": 2, "extendReasonCode": 3, "requestIdentifier": "mass-1", "productId": Self.monthly, "storefrontCountryCodes": ["USA"],
      ]),
      call("mass status", "get_status_of_subscription_renewal_date_extensions", "", ["requestIdentifier": "mass-1", "productId": Self.monthly]),
      call("token", "set_app_account_token", monthlyID, ["appAccountToken": token]),
      call("consumption", "send_consumption_information", coinsID, [
        "customerConsented": true, "sampleContentProvided": false, "deliveryStatus": "DELIVERED", "consumptionPercentage": 50_000,
        "refundPreference": "GRANT_FULL",
      ]),
      call("finish", "finish_transaction", coinsID),
      call("consumption v1", "send_consumption_data", coinsID, [
        "customerConsented": true, "rawConsumptionStatus": 1, "rawPlatform": 1, "sampleContentProvided": true,
        "rawDeliveryStatus": 3, "appAccountToken": "", "rawAccountTenure": 2, "rawPlayTime": 1, "rawLifetimeDollarsRefunded": 0,
        "rawLifetimeDollarsPurchased": 1, "rawUserStatus": 1, "rawRefundPreference": 2,
      ]),
      call("app transaction", "get_app_transaction_info", monthlyID),
      call("history v1", "get_transaction_history_v1", monthlyID),
      call("info", "get_transaction_info", monthlyID),
      call("bad token", "set_app_account_token", monthlyID, ["appAccountToken": "not-a-uuid"]),
    ]
    let input = try JSONSerialization.data(withJSONObject: [
      "base_url": "http://\(address)", "bundle_id": key["bundleId"] ?? "", "environment": "PRODUCTION", "calls": calls,
    ])
    let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/call_server_api.py").path
    let client = try ChildProcess.run(apple.python.path, [script], stdin: input, timeout: 120)
    XCTAssertEqual(client.status, 0, client.stderr)
    let list = try XCTUnwrap(JSONSerialization.jsonObject(with: client.stdoutData) as? [[String: Any]])
    let outcomes = Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "?", $0) })
    for name in ["order", "extend", "mass", "mass status", "token", "consumption", "finish", "info", "consumption v1", "app transaction", "history v1"] {
      XCTAssertEqual(outcomes[name]?["ok"] as? Bool, true, "\(name): \(outcomes[name] ?? [:])")
    }
    let fields = { (name: String) in outcomes[name]?["fields"] as? [String: Any] ?? [:] }
    XCTAssertEqual(fields("order")["rawStatus"] as? Int, 0)
    XCTAssertEqual(outcomes["order"]?["signed"] as? [String], [try XCTUnwrap(monthly["signedTransaction"] as? String)])
    XCTAssertEqual(fields("extend")["effectiveDate"] as? Int64, expiry + 3 * 86_400_000)
    XCTAssertEqual(fields("extend")["success"] as? Bool, true)
    XCTAssertEqual(fields("mass")["requestIdentifier"] as? String, "mass-1")
    XCTAssertEqual(fields("mass status")["complete"] as? Bool, true)
    XCTAssertEqual(fields("mass status")["succeededCount"] as? Int, 1)
    XCTAssertEqual(fields("mass status")["failedCount"] as? Int, 0)
    let appTransaction = TestStore.payload(of: (outcomes["app transaction"]?["signed"] as? [String])?.first)
    XCTAssertEqual(appTransaction["receiptType"] as? String, "Production")
    XCTAssertEqual(appTransaction["bundleId"] as? String, "com.example.storefront")
    XCTAssertEqual((outcomes["history v1"]?["signed"] as? [String])?.count, 1, "v1 leaves out the finished consumable")
    XCTAssertEqual(outcomes["bad token"]?["raw_api_error"] as? Int, 4_000_183)
    XCTAssertEqual(outcomes["bad token"]?["http_status"] as? Int, 400)

    // The server's answer and the ledger agree, and Apple's Production verifier accepts the re-signed JWS.
    let info = try XCTUnwrap((outcomes["info"]?["signed"] as? [String])?.first)
    XCTAssertEqual(TestStore.payload(of: info)["appAccountToken"] as? String, token)
    XCTAssertEqual((TestStore.payload(of: info)["expiresDate"] as? NSNumber)?.int64Value, expiry + 5 * 86_400_000)
    XCTAssertEqual(TestStore.payload(of: info)["environment"] as? String, "Production")
    let root = directory.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", data], in: directory).status, 0)
    let verdicts = try apple.verify([
      .init(name: "info", kind: .transaction, jws: info, rootDER: root, bundleID: "com.example.storefront", environment: "PRODUCTION")
    ])
    XCTAssertEqual(verdicts["info"]?.status, 0, verdicts["info"]?.cause ?? "")
    let after = try listing(data, in: directory)
    let monthlyAfter = try XCTUnwrap(after.first { $0["transactionId"] as? String == monthlyID })
    XCTAssertEqual(monthlyAfter["appAccountToken"] as? String, token)
    XCTAssertEqual(monthlyAfter["signedTransaction"] as? String, info, "byte for byte what the server answered")
    let coinsAfter = try XCTUnwrap(after.first { $0["transactionId"] as? String == coinsID })
    XCTAssertEqual(coinsAfter["finished"] as? Bool, true)
    // The v1 report came last and replaced the v2 one: delivery 3 is a server outage, consumption status 1 none
    // consumed, refund preference 2 decline.
    let consumption = try XCTUnwrap(coinsAfter["consumption"] as? [String: Any])
    XCTAssertEqual(consumption["deliveryStatus"] as? String, "UNDELIVERED_SERVER_OUTAGE")
    XCTAssertEqual(consumption["consumptionPercentage"] as? Int, 0)
    XCTAssertEqual(consumption["refundPreference"] as? String, "DECLINE")
    XCTAssertEqual(consumption["sampleContentProvided"] as? Bool, true)

    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    XCTAssertEqual(try serve.wait(timeout: 30).status, 0)
  }

  /// Sandbox controls for a client's retry code: a scenario's `server-fault` line reaches the
  /// serving process through the data directory, and Apple's client sees the 429s it asked for.
  func testAScenarioServerFaultMakesServeAnswer429ThenTheRealAnswer() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let created = try StorefrontBinary.run(["keys", "create", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(created.status, 0, created.stderr)
    let key = try XCTUnwrap(JSONSerialization.jsonObject(with: created.stdoutData) as? [String: Any])
    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data], in: directory)
    let address = try ReadyFile.address(fromFIFO: fifo)

    let scenario = directory.path("faults.scenario")
    try Data("""
      account backend
      set dialogs off
      buy \(Self.coins)
      server-fault getTransactionInfo answer=429 count=2

      """.utf8).write(to: URL(fileURLWithPath: scenario))
    let run = try StorefrontBinary.run(["run", scenario, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(run.status, 0, run.summary)
    let bought = try XCTUnwrap(EventLine.parse(run.stdout, source: "faults").first { $0.state == "purchased" }?.transactionID)

    let call: [String: Any] = [
      "name": "info", "key_file": key["privateKeyFile"] ?? "", "key_id": key["keyId"] ?? "", "issuer_id": key["issuerId"] ?? "",
      "endpoint": "get_transaction_info", "argument": bought,
    ]
    let input = try JSONSerialization.data(withJSONObject: [
      "base_url": "http://\(address)", "bundle_id": key["bundleId"] ?? "", "calls": [call, call, call],
    ])
    let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/call_server_api.py").path
    let client = try ChildProcess.run(apple.python.path, [script], stdin: input, timeout: 120)
    XCTAssertEqual(client.status, 0, client.stderr)
    let outcomes = try XCTUnwrap(JSONSerialization.jsonObject(with: client.stdoutData) as? [[String: Any]])
    XCTAssertEqual(outcomes.map { $0["raw_api_error"] as? Int }, [4_290_000, 4_290_000, nil])
    XCTAssertEqual(outcomes.map { $0["http_status"] as? Int }, [429, 429, nil])
    XCTAssertEqual(outcomes.last?["ok"] as? Bool, true)
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("data/server-faults.json")), "used up")

    // A name that is not an endpoint stops the run at its line, with the names to use.
    try Data("server-fault getTransactionInfos answer=500\n".utf8).write(to: URL(fileURLWithPath: scenario))
    let wrong = try StorefrontBinary.run(["run", scenario, "--data-dir", data], in: directory)
    XCTAssertNotEqual(wrong.status, 0)
    XCTAssertTrue(wrong.stderr.contains("faults.scenario:1: stopped: Unknown App Store Server API endpoint 'getTransactionInfos'. Did you mean 'getTransactionInfo'?"), wrong.stderr)

    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    XCTAssertEqual(try serve.wait(timeout: 30).status, 0)
  }
}
