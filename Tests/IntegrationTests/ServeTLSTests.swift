import Foundation
import SandboxSigning
import StorefrontProcessTestSupport
import XCTest

/// `storefront serve --tls` as a backend reaches it: by Apple's host name (curl's `--resolve`, or a
/// hosts mapping inside Apple's Python client), trusting only the root serve names on start.
final class ServeTLSTests: XCTestCase {
  private struct CreatedKey: Decodable {
    var keyId: String
    var issuerId: String
    var privateKeyFile: String
    var bundleId: String
  }

  private struct Outcome: Decodable {
    var ok: Bool
    var signed: [String]?
    var http_status: Int?
  }

  /// The first line serve writes (`{"event":"listening",…}`), read from a FIFO given as --ready-file
  /// first so the wait is bounded.
  private func startServe(_ data: String, in directory: TemporaryDirectory) throws -> (RunningProcess, UInt16) {
    let fifo = directory.path("ready-\(UUID().uuidString.prefix(8))")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(
      ["serve", "--tls", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--json", "--data-dir", data], in: directory)
    let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(descriptor) }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    XCTAssertEqual(poll(&poller, 1, 60_000), 1, "serve did not write its ready file")
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(descriptor, &buffer, buffer.count)
    let address = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let port = try XCTUnwrap(address.split(separator: ":").last.flatMap { UInt16($0) }, address)
    return (serve, port)
  }

  private func stop(_ serve: RunningProcess) throws -> ProcessResult {
    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    let result = try serve.wait(timeout: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    return result
  }

  private struct Served {
    var directory: TemporaryDirectory
    var data: String
    var key: CreatedKey
    var transactionID: String
    var signed: String
    var serve: RunningProcess
    var port: UInt16
    var root: String { "\(data)/ca/root-ca.pem" }
  }

  /// A data directory with a key and one purchase, served with --tls.
  private func served() throws -> Served {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let created = try StorefrontBinary.run(["keys", "create", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(created.status, 0, created.stderr)
    let key = try JSONDecoder().decode(CreatedKey.self, from: created.stdoutData)
    let scenario = directory.path("buy.scenario")
    try Data("account backend\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.shopping\n".utf8)
      .write(to: URL(fileURLWithPath: scenario))
    let run = try StorefrontBinary.run(["run", scenario, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(run.status, 0, run.summary)
    let purchase = try XCTUnwrap(EventLine.parse(run.stdout, source: "buy").first { $0.event == "transactionUpdated" && $0.state == "purchased" })
    let transactionID = try XCTUnwrap(purchase.transactionID)
    let signed = try XCTUnwrap(purchase.object["signedTransaction"] as? String)

    let (serve, port) = try startServe(data, in: directory)
    return Served(directory: directory, data: data, key: key, transactionID: transactionID, signed: signed, serve: serve, port: port)
  }

  func testBackendsReachServeByApplesHostNamesTrustingTheRootItNames() throws {
    let served = try served()
    let (directory, data, key, transactionID, signed, serve, port, root) = (
      served.directory, served.data, served.key, served.transactionID, served.signed, served.serve, served.port, served.root
    )
    let certificate = "\(data)/ca/tls-server.pem"
    XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: "\(data)/ca/tls-server.key.pem")[.posixPermissions] as? Int, 0o600)

    // curl by the older sandbox host name, and by the current one, with Apple's token.
    let privateKey = try PrivateKey(pem: Data(contentsOf: URL(fileURLWithPath: key.privateKeyFile)))
    let token = try TestToken(keyID: key.keyId, issuerID: key.issuerId, bundleID: key.bundleId, expires: Date().timeIntervalSince1970 + 300)
      .signed(by: privateKey.signES256)
    for host in ["api.storekit-sandbox.itunes.apple.com", "api.storekit-sandbox.apple.com"] {
      let curl = try ChildProcess.run(
        "/usr/bin/env",
        ["curl", "--silent", "--show-error", "--max-time", "20", "--resolve", "\(host):\(port):127.0.0.1", "--cacert", root,
         "-H", "Authorization: Bearer \(token)", "https://\(host):\(port)/inApps/v1/transactions/\(transactionID)"],
        timeout: 30)
      XCTAssertEqual(curl.status, 0, "\(host): \(curl.stderr)")
      let body = try JSONSerialization.jsonObject(with: curl.stdoutData) as? [String: Any]
      XCTAssertEqual(body?["signedTransactionInfo"] as? String, signed, host)
      let unknown = try ChildProcess.run(
        "/usr/bin/env",
        ["curl", "--silent", "--max-time", "20", "--resolve", "\(host):\(port):127.0.0.1", "--cacert", root,
         "-H", "Authorization: Bearer \(token)", "https://\(host):\(port)/inApps/v1/transactions/1"],
        timeout: 30)
      XCTAssertEqual(unknown.stdout, #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#, host)
    }

    // The chain verifies with the root alone, served and on disk.
    let verify = try ChildProcess.run("/usr/bin/env", ["openssl", "verify", "-purpose", "sslserver", "-CAfile", root, certificate])
    XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    let handshake = try ChildProcess.run(
      "/usr/bin/env",
      ["openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-servername", "api.storekit.itunes.apple.com",
       "-verify_hostname", "api.storekit.itunes.apple.com", "-verify_return_error", "-CAfile", root],
      timeout: 30)
    XCTAssertTrue(handshake.stdout.contains("Verify return code: 0 (ok)"), handshake.stdout + handshake.stderr)

    let result = try stop(serve)
    let start = try XCTUnwrap(result.stdout.split(separator: "\n").first.map(String.init))
    let object = try JSONSerialization.jsonObject(with: Data(start.utf8)) as? [String: Any]
    XCTAssertEqual(object?["url"] as? String, "https://127.0.0.1:\(port)")
    XCTAssertEqual(object?["rootCertificate"] as? String, root)
    XCTAssertFalse(result.stdout.contains("PRIVATE KEY") || result.stderr.contains("PRIVATE KEY"))

    // A second start serves the same certificate, and says which root to trust in text mode too.
    let before = try Data(contentsOf: URL(fileURLWithPath: certificate))
    let fifo = directory.path("ready-text")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let again = try StorefrontBinary.start(["serve", "--tls", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data], in: directory)
    let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    XCTAssertEqual(poll(&poller, 1, 60_000), 1, "serve did not write its ready file")
    close(descriptor)
    let text = try stop(again).stdout
    XCTAssertTrue(text.contains("Listening on https://127.0.0.1:"), text)
    XCTAssertTrue(text.contains("TLS: trust the root certificate \(root)"), text)
    XCTAssertFalse(text.contains("issued now"), text)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: certificate)), before)
  }

  func testApplesPythonClientReachesServeOverHTTPSByApplesHostName() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let served = try served()
    let host = "api.storekit-sandbox.apple.com"
    let input = try JSONSerialization.data(withJSONObject: [
      "base_url": "https://\(host):\(served.port)", "bundle_id": served.key.bundleId, "resolve": [host: "127.0.0.1"],
      "calls": [[
        "name": "tls", "key_file": served.key.privateKeyFile, "key_id": served.key.keyId, "issuer_id": served.key.issuerId,
        "endpoint": "get_transaction_info", "argument": served.transactionID,
      ]],
    ])
    // Apple's client, unchanged but for its base URL, trusts the root through REQUESTS_CA_BUNDLE.
    var environment = ProcessInfo.processInfo.environment
    environment["REQUESTS_CA_BUNDLE"] = served.root
    let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/call_server_api.py").path
    let client = try ChildProcess.run(apple.python.path, [script], stdin: input, environment: environment, timeout: 120)
    XCTAssertEqual(client.status, 0, client.stderr)
    let outcomes = try JSONDecoder().decode([Outcome].self, from: client.stdoutData)
    XCTAssertEqual(outcomes.first?.ok, true, client.stdout)
    XCTAssertEqual(outcomes.first?.signed, [served.signed])
    XCTAssertTrue(try stop(served.serve).stdout.contains(#""status":200"#))
  }
}
