import Foundation
import StorefrontProcessTestSupport
import XCTest

/// `storefront serve` driven by Apple's own Python `AppStoreServerAPIClient`, pointed at it through
/// the client's base-URL seam: Apple's token reaches the endpoints, a foreign or revoked key gets
/// Apple's 401, and SIGTERM ends the server with exit 0.
final class ServeAppleClientTests: XCTestCase {
  private struct CreatedKey: Decodable {
    var keyId: String
    var issuerId: String
    var privateKeyFile: String
    var bundleId: String
  }

  private struct Call: Encodable {
    var name: String
    var key_file: String
    var key_id: String
    var issuer_id: String
    var endpoint = "get_transaction_info"
    var argument = "2000000000000001"
  }

  private struct Outcome: Decodable, Equatable {
    var name: String
    var ok: Bool
    var http_status: Int?
    var raw_api_error: Int?
    var signed: [String]? = nil
  }

  private func createKey(_ dataDirectory: String, in directory: TemporaryDirectory) throws -> CreatedKey {
    let result = try StorefrontBinary.run(["keys", "create", "--json", "--data-dir", dataDirectory], in: directory)
    XCTAssertEqual(result.status, 0, result.stderr)
    return try JSONDecoder().decode(CreatedKey.self, from: result.stdoutData)
  }


  func testAppleClientReachesServeWithAGoodKeyAndGets401WithABadOne() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let key = try createKey(data, in: directory)
    let revoked = try createKey(data, in: directory)
    let foreign = try createKey(directory.path("other-data"), in: directory)
    let attributes = try FileManager.default.attributesOfItem(atPath: key.privateKeyFile)
    XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)
    XCTAssertTrue(try String(contentsOfFile: key.privateKeyFile, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))

    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--json", "--data-dir", data], in: directory)
    let address = try ReadyFile.address(fromFIFO: fifo)
    XCTAssertTrue(address.hasPrefix("127.0.0.1:") && !address.hasSuffix(":0"), address)
    XCTAssertEqual(try StorefrontBinary.run(["keys", "revoke", revoked.keyId, "--data-dir", data], in: directory).status, 0)

    let calls = [
      Call(name: "good", key_file: key.privateKeyFile, key_id: key.keyId, issuer_id: key.issuerId),
      Call(name: "foreign key", key_file: foreign.privateKeyFile, key_id: foreign.keyId, issuer_id: foreign.issuerId),
      Call(name: "revoked key", key_file: revoked.privateKeyFile, key_id: revoked.keyId, issuer_id: revoked.issuerId),
      Call(name: "wrong issuer", key_file: key.privateKeyFile, key_id: key.keyId, issuer_id: foreign.issuerId),
      Call(name: "key id of another key", key_file: foreign.privateKeyFile, key_id: key.keyId, issuer_id: key.issuerId),
    ]
    let input = try JSONSerialization.data(withJSONObject: [
      "base_url": "http://\(address)", "bundle_id": key.bundleId,
      "calls": try JSONSerialization.jsonObject(with: JSONEncoder().encode(calls)),
    ])
    let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/call_server_api.py").path
    let client = try ChildProcess.run(apple.python.path, [script], stdin: input, timeout: 120)
    XCTAssertEqual(client.status, 0, client.stderr)
    let outcomes = try JSONDecoder().decode([Outcome].self, from: client.stdoutData)
    XCTAssertEqual(outcomes, [
      Outcome(name: "good", ok: false, http_status: 404, raw_api_error: 4_040_010),
      Outcome(name: "foreign key", ok: false, http_status: 401, raw_api_error: nil),
      Outcome(name: "revoked key", ok: false, http_status: 401, raw_api_error: nil),
      Outcome(name: "wrong issuer", ok: false, http_status: 401, raw_api_error: nil),
      Outcome(name: "key id of another key", ok: false, http_status: 401, raw_api_error: nil),
    ])

    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    let result = try serve.wait(timeout: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertFalse(result.signalled)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first.map { $0.contains(#""event":"listening""#) && $0.contains(address) }, true, lines.first ?? "")
    XCTAssertEqual(lines.last, #"{"event":"stopped"}"#)
    let requests = try lines.dropFirst().dropLast().map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    XCTAssertEqual(requests.map { $0?["status"] as? Int }, [404, 401, 401, 401, 401])
    XCTAssertEqual(requests.first??["keyId"] as? String, key.keyId)
    XCTAssertEqual(requests.first??["path"] as? String, "/inApps/v1/transactions/2000000000000001")
    for secret in ["PRIVATE KEY", "eyJ"] {
      XCTAssertFalse(result.stdout.contains(secret) || result.stderr.contains(secret), "serve printed \(secret)")
    }
  }

  /// A purchase `storefront run` makes on the served data directory is in the next answer, with the
  /// same signed data the run printed, byte for byte; Apple's client parses each response model.
  func testPurchasesMadeByRunAreServedWithTheirSignedDataByteForByte() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let key = try createKey(data, in: directory)
    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data], in: directory)
    let address = try ReadyFile.address(fromFIFO: fifo)

    let scenario = directory.path("buy.scenario")
    try Data("""
      account backend
      set dialogs off
      buy com.jake.sample.ExInAppPurchase.shopping
      buy com.jake.sample.ExInAppPurchase.premium.monthly
      refund com.jake.sample.ExInAppPurchase.shopping

      """.utf8).write(to: URL(fileURLWithPath: scenario))
    let run = try StorefrontBinary.run(["run", scenario, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(run.status, 0, run.summary)
    let events = EventLine.parse(run.stdout, source: "buy")
    let purchased = events.filter { $0.event == "transactionUpdated" && $0.state == "purchased" }
    let removeAds = try XCTUnwrap(purchased.first)
    let removeAdsID = try XCTUnwrap(removeAds.transactionID)
    let monthlyID = try XCTUnwrap(purchased.last?.transactionID)
    let refunded = try XCTUnwrap(events.last { $0.event == "transactionRevoked" }?.object["signedTransaction"] as? String)

    func call(_ name: String, _ endpoint: String, _ argument: String) -> Call {
      Call(name: name, key_file: key.privateKeyFile, key_id: key.keyId, issuer_id: key.issuerId, endpoint: endpoint, argument: argument)
    }
    let calls = [
      call("info", "get_transaction_info", removeAdsID),
      call("history", "get_transaction_history", monthlyID),
      call("statuses", "get_all_subscription_statuses", monthlyID),
      call("refunds", "get_refund_history", monthlyID),
      call("unknown", "get_transaction_info", "2000000099999999"),
    ]
    let input = try JSONSerialization.data(withJSONObject: [
      "base_url": "http://\(address)", "bundle_id": key.bundleId,
      "calls": try JSONSerialization.jsonObject(with: JSONEncoder().encode(calls)),
    ])
    let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/call_server_api.py").path
    let client = try ChildProcess.run(apple.python.path, [script], stdin: input, timeout: 120)
    XCTAssertEqual(client.status, 0, client.stderr)
    let outcomes = Dictionary(
      uniqueKeysWithValues: try JSONDecoder().decode([Outcome].self, from: client.stdoutData).map { ($0.name, $0) })
    // The refunded purchase, as the ledger now holds it (re-signed with its revocation).
    XCTAssertEqual(outcomes["info"]?.signed, [refunded])
    XCTAssertEqual(outcomes["history"]?.signed?.count, 2, "the customer's two purchases")
    XCTAssertTrue(outcomes["history"]?.signed?.contains(refunded) == true)
    let monthlyJWS = try XCTUnwrap(purchased.last?.object["signedTransaction"] as? String)
    XCTAssertTrue(outcomes["history"]?.signed?.contains(monthlyJWS) == true, "byte for byte what the run printed")
    XCTAssertEqual(outcomes["statuses"]?.signed?.first, monthlyJWS)
    XCTAssertEqual(outcomes["refunds"]?.signed, [refunded])
    XCTAssertEqual(outcomes["unknown"], Outcome(name: "unknown", ok: false, http_status: 404, raw_api_error: 4_040_010))

    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    XCTAssertEqual(try serve.wait(timeout: 30).status, 0)
  }

  func testANonLoopbackAddressIsAnnouncedAndSIGINTStopsCleanly() throws {
    let directory = try TemporaryDirectory(self)
    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(
      ["serve", "--listen", "0.0.0.0:0", "--ready-file", fifo, "--data-dir", directory.path("data")], in: directory)
    let address = try ReadyFile.address(fromFIFO: fifo)
    XCTAssertTrue(address.hasPrefix("0.0.0.0:"), address)
    XCTAssertEqual(kill(serve.processIdentifier, SIGINT), 0)
    let result = try serve.wait(timeout: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stderr.contains("Warning: listening on \(address), which other machines can reach"), result.stderr)
    XCTAssertTrue(result.stderr.contains("No API keys yet: every request gets 401"), result.stderr)
    XCTAssertTrue(result.stdout.hasPrefix("Listening on http://\(address) (Sandbox, bundle id com.example.storefront, 0 active keys)."), result.stdout)
    XCTAssertTrue(result.stdout.hasSuffix("Stopped.\n"), result.stdout)
    let dataMode = try FileManager.default.attributesOfItem(atPath: directory.path("data"))[.posixPermissions] as? Int
    XCTAssertEqual(dataMode, 0o700, "serve makes a missing data directory private")
  }
}
