import Foundation
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

/// `POST /verifyReceipt` through the real `storefront serve`: every status code of the slice, the
/// shared secret and its rotation, injected 211xx faults, and a backend written as seed 002's
/// server works (production first, sandbox on 21007).
final class VerifyReceiptServeTests: XCTestCase {
  struct Serve {
    var process: RunningProcess
    var port: UInt16
  }

  private var running: [RunningProcess] = []

  override func tearDown() {
    for process in running {
      kill(process.processIdentifier, SIGTERM)
      _ = try? process.wait(timeout: 30)
    }
    super.tearDown()
  }

  func serve(_ data: String, environment: String, in directory: TemporaryDirectory) throws -> Serve {
    let fifo = directory.path("ready-\(environment)-\(running.count)")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let process = try StorefrontBinary.start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--environment", environment, "--data-dir", data], in: directory)
    running.append(process)
    let address = try ReadyFile.address(fromFIFO: fifo)
    let port = try XCTUnwrap(address.split(separator: ":").last.flatMap { UInt16($0) }, address)
    return Serve(process: process, port: port)
  }

  /// One request; the HTTP status and the JSON object answered.
  static func call(_ port: UInt16, method: String = "POST", body: Data) throws -> (http: Int, json: [String: Any]) {
    let connection = try RawHTTPConnection(port: port)
    var request = Data("\(method) /verifyReceipt HTTP/1.1\r\nHost: sandbox.itunes.apple.com\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
    request.append(body)
    try connection.send(request)
    let response = try connection.receive(timeout: 30)
    let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
    return (response.status, object)
  }

  static func body(_ receipt: String, password: String? = nil, excludeOld: Any? = nil) throws -> Data {
    var object: [String: Any] = ["receipt-data": receipt]
    if let password { object["password"] = password }
    if let excludeOld { object["exclude-old-transactions"] = excludeOld }
    return try JSONSerialization.data(withJSONObject: object)
  }

  func receipt(_ data: String, account: String, environment: String = "Sandbox", in directory: TemporaryDirectory) throws -> String {
    let result = try StorefrontBinary.run(["receipt", "--data-dir", data, "--account", account, "--environment", environment], in: directory)
    XCTAssertEqual(result.status, 0, result.stderr)
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func testEveryStatusCodeThroughTheRealServer() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let script = """
      account jake password=sandbox1
      set dialogs off
      buy com.jake.sample.ExInAppPurchase.coins100
      account subscriber
      buy com.jake.sample.ExInAppPurchase.premium.monthly
      finish last
      advance P2M

      """
    let run = try StorefrontBinary.run(["run", "-", "--data-dir", data], stdin: Data(script.utf8), in: directory)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    let secretRun = try StorefrontBinary.run(["keys", "shared-secret", "--data-dir", data], in: directory)
    let secret = secretRun.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(secret.count, 32, secretRun.stderr)
    let mode = try FileManager.default.attributesOfItem(atPath: "\(data)/shared-secret")[.posixPermissions] as? Int
    XCTAssertEqual(mode, 0o600)
    XCTAssertEqual(try StorefrontBinary.run(["keys", "shared-secret", "--data-dir", data], in: directory).stdout, secretRun.stdout, "shown, not remade")

    let sandbox = try serve(data, environment: "Sandbox", in: directory)
    let production = try serve(data, environment: "Production", in: directory)
    let jake = try receipt(data, account: "jake", in: directory)
    let subscriber = try receipt(data, account: "subscriber", in: directory)
    let productionReceipt = try receipt(data, account: "jake", environment: "Production", in: directory)
    let foreignData = directory.path("foreign")
    XCTAssertEqual(try StorefrontBinary.run(["run", "-", "--data-dir", foreignData], stdin: Data(script.utf8), in: directory).status, 0)
    let foreign = try receipt(foreignData, account: "jake", in: directory)

    func status(_ port: UInt16, method: String = "POST", _ body: Data) throws -> Int {
      let answer = try Self.call(port, method: method, body: body)
      XCTAssertEqual(answer.http, 200, "verifyReceipt always answers 200")
      return answer.json["status"] as? Int ?? -1
    }
    // 0: a consumable's receipt needs no password; the unfinished consumable is in in_app.
    let valid = try Self.call(sandbox.port, body: try Self.body(jake))
    XCTAssertEqual(valid.json["status"] as? Int, 0)
    XCTAssertEqual(valid.json["environment"] as? String, "Sandbox")
    let receiptObject = try XCTUnwrap(valid.json["receipt"] as? [String: Any])
    XCTAssertEqual(receiptObject["bundle_id"] as? String, "com.example.storefront")
    XCTAssertEqual(receiptObject["receipt_type"] as? String, "ProductionSandbox")
    let inApp = try XCTUnwrap(receiptObject["in_app"] as? [[String: Any]])
    XCTAssertEqual(inApp.map { $0["product_id"] as? String }, ["com.jake.sample.ExInAppPurchase.coins100"])
    XCTAssertEqual(inApp.first?["quantity"] as? String, "1", "string-typed")
    XCTAssertEqual(inApp.first?["purchase_date"] as? String, "2026-01-01 00:00:00 Etc/GMT")
    XCTAssertEqual(inApp.first?["purchase_date_ms"] as? String, "1767225600000")
    XCTAssertEqual(inApp.first?["purchase_date_pst"] as? String, "2025-12-31 16:00:00 America/Los_Angeles")
    XCTAssertNil(valid.json["latest_receipt_info"], "only for receipts with auto-renewables")

    // Subscriptions: the shared secret is required and checked; latest_receipt_info and pending_renewal_info.
    XCTAssertEqual(try status(sandbox.port, try Self.body(subscriber)), 21004)
    XCTAssertEqual(try status(sandbox.port, try Self.body(subscriber, password: "0123")), 21004)
    let subscribed = try Self.call(sandbox.port, body: try Self.body(subscriber, password: secret))
    XCTAssertEqual(subscribed.json["status"] as? Int, 0)
    let latest = try XCTUnwrap(subscribed.json["latest_receipt_info"] as? [[String: Any]])
    XCTAssertEqual(latest.count, 3, "the purchase and two renewals")
    XCTAssertEqual(Set(latest.compactMap { $0["original_transaction_id"] as? String }).count, 1)
    XCTAssertNotNil(latest.first?["expires_date_ms"] as? String)
    XCTAssertNotNil(latest.first?["web_order_line_item_id"] as? String)
    XCTAssertEqual((subscribed.json["pending_renewal_info"] as? [[String: Any]])?.first?["auto_renew_status"] as? String, "1")
    let latestReceipt = try XCTUnwrap(subscribed.json["latest_receipt"] as? String)
    XCTAssertEqual(try status(sandbox.port, try Self.body(latestReceipt, password: secret)), 0, "latest_receipt verifies too")
    for flag in [true as Any, "true" as Any] {
      let excluded = try Self.call(sandbox.port, body: try Self.body(subscriber, password: secret, excludeOld: flag))
      XCTAssertEqual((excluded.json["latest_receipt_info"] as? [[String: Any]])?.count, 1, "exclude-old-transactions \(flag)")
    }
    // Rotation: the old secret stops working at the next request.
    let rotated = try StorefrontBinary.run(["keys", "shared-secret", "--rotate", "--data-dir", data], in: directory)
    let newSecret = rotated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertNotEqual(newSecret, secret)
    XCTAssertEqual(try status(sandbox.port, try Self.body(subscriber, password: secret)), 21004)
    XCTAssertEqual(try status(sandbox.port, try Self.body(subscriber, password: newSecret)), 0)

    // Another process renews the subscription: the next answer shows it (the history cache follows the ledger).
    let renewed = try StorefrontBinary.run(
      ["run", "-", "--data-dir", data], stdin: Data("account subscriber\nadvance P1M\n".utf8), in: directory)
    XCTAssertEqual(renewed.status, 0, renewed.stdout + renewed.stderr)
    let after = try Self.call(sandbox.port, body: try Self.body(subscriber, password: newSecret))
    XCTAssertEqual((after.json["latest_receipt_info"] as? [[String: Any]])?.count, 4, "one more renewal")

    XCTAssertEqual(try status(sandbox.port, method: "GET", Data()), 21000)
    XCTAssertEqual(try status(sandbox.port, method: "PUT", try Self.body(jake)), 21000)
    XCTAssertEqual(try status(sandbox.port, Data("not json".utf8)), 21002)
    XCTAssertEqual(try status(sandbox.port, try Self.body("bm90IGEgcmVjZWlwdA==")), 21002)
    XCTAssertEqual(try status(sandbox.port, try Self.body(foreign)), 21003, "signed by another data directory's CA")
    XCTAssertEqual(try status(production.port, try Self.body(jake)), 21007)
    XCTAssertEqual(try status(sandbox.port, try Self.body(productionReceipt)), 21008)
    XCTAssertEqual(try status(production.port, try Self.body(productionReceipt)), 0)

    // 211xx on demand, counted down: the next request answers normally again.
    let fault = try StorefrontBinary.run(
      ["run", "-", "--data-dir", data], stdin: Data("server-fault verifyReceipt answer=21150 count=2\n".utf8), in: directory)
    XCTAssertEqual(fault.status, 0, fault.stdout + fault.stderr)
    for _ in 0..<2 {
      let injected = try Self.call(sandbox.port, body: try Self.body(jake))
      XCTAssertEqual(injected.json["status"] as? Int, 21150)
      XCTAssertEqual(injected.json["is-retryable"] as? Bool, true)
    }
    XCTAssertEqual(try status(sandbox.port, try Self.body(jake)), 0)
    let invalid = try StorefrontBinary.run(
      ["run", "-", "--data-dir", data], stdin: Data("server-fault verifyReceipt answer=21002\n".utf8), in: directory)
    XCTAssertNotEqual(invalid.status, 0)
    XCTAssertTrue((invalid.stdout + invalid.stderr).contains("21100 to 21199"), invalid.stdout + invalid.stderr)
  }

  /// Seed 002's server: send the app's receipt (base64 with line feeds, no password) to production;
  /// on 21007 send it to the sandbox; the purchase is the first `in_app` entry's product id.
  static func seed002Backend(receipt: String, production: UInt16, sandbox: UInt16) throws -> (status: Int, productID: String?) {
    let wrapped = Data(base64Encoded: receipt)?.base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed]) ?? receipt
    // The app formats the body itself: the line feeds land raw inside the JSON string.
    let body = Data("{\"receipt-data\" : \"\(wrapped)\"}".utf8)
    var answer = try call(production, body: body).json
    if answer["status"] as? Int == 21007 { answer = try call(sandbox, body: body).json }
    let inApp = (answer["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]]
    return (answer["status"] as? Int ?? -1, inApp?.first?["product_id"] as? String)
  }

  func testASeed002BackendGetsStatus0AndThePurchase() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let script = "account jake password=sandbox1\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.coins100\n"
    XCTAssertEqual(try StorefrontBinary.run(["run", "-", "--data-dir", data], stdin: Data(script.utf8), in: directory).status, 0)
    let sandbox = try serve(data, environment: "Sandbox", in: directory)
    let production = try serve(data, environment: "Production", in: directory)
    let verdict = try Self.seed002Backend(
      receipt: try receipt(data, account: "jake", in: directory), production: production.port, sandbox: sandbox.port)
    XCTAssertEqual(verdict.status, 0)
    XCTAssertEqual(verdict.productID, "com.jake.sample.ExInAppPurchase.coins100")
    // Requests in parallel (serve runs a thread per connection): every one verified.
    let body = try Self.body(try receipt(data, account: "jake", in: directory))
    let statuses = Locked<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 16) { _ in
      let status = (try? Self.call(sandbox.port, body: body))?.json["status"] as? Int ?? -1
      statuses.withLock { $0.append(status) }
    }
    XCTAssertEqual(statuses.withLock { $0 }, Array(repeating: 0, count: 16))
  }
}
