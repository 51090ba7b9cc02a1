import Foundation
import PostgreSQLLedger
import SandboxSigning
import StorefrontProcessTestSupport
import XCTest

/// The API keys and the verifyReceipt shared secret on a shared PostgreSQL ledger: made on one
/// machine (data directory), trusted and answered by a `serve` on another, revoked or rotated from
/// either, the private ones stored sealed.
final class SharedCredentialsTests: XCTestCase {
  private struct CreatedKey: Decodable {
    var keyId: String
    var issuerId: String
    var privateKeyFile: String
    var bundleId: String
  }

  private func database(_ label: String) throws -> String { try sharedLedgerDatabase(label) }

  /// `serve` on data directory `data` and the shared ledger, once it listens; the caller stops it.
  private func startServe(on data: String, ledger uri: String, key: String, in directory: TemporaryDirectory) throws
    -> (RunningProcess, String)
  {
    let fifo = directory.path("ready-\(UUID().uuidString.prefix(8))")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data, "--ledger", uri, "--key-file", key], in: directory)
    return (serve, try ReadyFile.address(fromFIFO: fifo))
  }

  func testAKeyMadeOnOneMachineIsTrustedAndRevokedOnAnother() throws {
    let uri = try database("sharedkeys")
    let directory = try TemporaryDirectory(self)
    let teamKey = try TeamKey.file(in: directory)
    func storefront(_ machine: String, _ arguments: [String]) throws -> ProcessResult {
      try StorefrontBinary.run(arguments + ["--data-dir", directory.path(machine), "--ledger", uri, "--key-file", teamKey], in: directory)
    }

    let created = try storefront("machine-a", ["keys", "create", "--json", "--name", "backend"])
    XCTAssertEqual(created.status, 0, created.summary)
    let key = try JSONDecoder().decode(CreatedKey.self, from: created.stdoutData)
    let listed = try storefront("machine-b", ["keys", "list", "--json"])
    XCTAssertEqual(listed.status, 0, listed.summary)
    XCTAssertTrue(listed.stdout.contains(#""keyId":"\#(key.keyId)""#), listed.stdout)
    XCTAssertTrue(listed.stdout.contains(#""issuerId":"\#(key.issuerId)""#), listed.stdout)

    // Machine B gets the same .p8 from the database; it is stored sealed, never as PEM.
    let exported = directory.path("exported.p8")
    let export = try storefront("machine-b", ["keys", "export", key.keyId, "--out", exported])
    XCTAssertEqual(export.status, 0, export.summary)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: exported)), try Data(contentsOf: URL(fileURLWithPath: key.privateKeyFile)))
    XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: exported)[.posixPermissions] as? Int, 0o600)
    let table = try PostgreSQLSecretTable(address: PostgreSQLAddress(uri))
    let stored = try table.values(["AuthKey_\(key.keyId).p8", "api-keys.json"])
    XCTAssertEqual(stored["AuthKey_\(key.keyId).p8"].map { $0.hasPrefix("sf1:") && !$0.contains("PRIVATE KEY") }, true)
    XCTAssertTrue(stored["api-keys.json"]?.contains(key.keyId) == true, "the registry (public halves) is stored in the clear")
    let unknown = try storefront("machine-b", ["keys", "export", "ZZZZZZZZZZ"])
    XCTAssertNotEqual(unknown.status, 0)
    XCTAssertTrue(unknown.stderr.contains("no API key 'ZZZZZZZZZZ'"), unknown.stderr)

    // serve on machine B trusts A's key; A's revoke counts from B's next request.
    let (serve, address) = try startServe(on: directory.path("machine-b"), ledger: uri, key: teamKey, in: directory)
    defer {
      kill(serve.processIdentifier, SIGTERM)
      _ = try? serve.wait(timeout: 30)
    }
    let privateKey = try PrivateKey(pem: Data(contentsOf: URL(fileURLWithPath: exported)))
    let token = try TestToken(keyID: key.keyId, issuerID: key.issuerId, bundleID: key.bundleId, expires: Date().timeIntervalSince1970 + 300)
      .signed(by: privateKey.signES256)
    func status() throws -> String {
      let curl = try ChildProcess.run(
        "/usr/bin/env",
        ["curl", "--silent", "--max-time", "20", "--output", "/dev/null", "--write-out", "%{http_code}",
         "-H", "Authorization: Bearer \(token)", "http://\(address)/inApps/v1/transactions/1"],
        timeout: 30)
      XCTAssertEqual(curl.status, 0, curl.stderr)
      return curl.stdout
    }
    XCTAssertEqual(try status(), "404", "an unknown transaction, with a trusted key")
    let revoked = try storefront("machine-a", ["keys", "revoke", key.keyId])
    XCTAssertEqual(revoked.status, 0, revoked.summary)
    XCTAssertEqual(try status(), "401", "revoked on machine A, refused by machine B's serve at once")
  }

  func testTheSharedSecretIsOneForEveryMachine() throws {
    let uri = try database("sharedsecret")
    let directory = try TemporaryDirectory(self)
    let teamKey = try TeamKey.file(in: directory)
    func secret(_ machine: String, rotate: Bool = false) throws -> String {
      let result = try StorefrontBinary.run(
        ["keys", "shared-secret"] + (rotate ? ["--rotate"] : []) + ["--data-dir", directory.path(machine), "--ledger", uri, "--key-file", teamKey],
        in: directory)
      XCTAssertEqual(result.status, 0, result.summary)
      return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let first = try secret("machine-a")
    XCTAssertEqual(first.count, 32)
    XCTAssertEqual(try secret("machine-b"), first, "machine B reads the secret machine A made")
    let rotated = try secret("machine-b", rotate: true)
    XCTAssertNotEqual(rotated, first)
    XCTAssertEqual(try secret("machine-a"), rotated, "a rotation on B is what A sees")
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("machine-a") + "/shared-secret"), "no local copy")
    let stored = try PostgreSQLSecretTable(address: PostgreSQLAddress(uri)).values(["shared-secret"])["shared-secret"]
    XCTAssertEqual(stored.map { $0.hasPrefix("sf1:") && !$0.contains(rotated) }, true, "stored sealed")

    // verifyReceipt on machine B checks the password against the shared secret.
    let data = directory.path("machine-a")
    let bought = try StorefrontBinary.run(
      ["run", "-", "--json", "--data-dir", data, "--ledger", uri, "--account", "jake", "--key-file", teamKey],
      stdin: Data("set dialogs off\nbuy com.jake.sample.ExInAppPurchase.premium.monthly\n".utf8), in: directory)
    XCTAssertEqual(bought.status, 0, bought.summary)
    let exported = try StorefrontBinary.run(["receipt", "--data-dir", data, "--ledger", uri, "--account", "jake", "--key-file", teamKey], in: directory)
    XCTAssertEqual(exported.status, 0, exported.summary)
    let receipt = exported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let (serve, address) = try startServe(on: directory.path("machine-b"), ledger: uri, key: teamKey, in: directory)
    defer {
      kill(serve.processIdentifier, SIGTERM)
      _ = try? serve.wait(timeout: 30)
    }
    let port = try XCTUnwrap(address.split(separator: ":").last.flatMap { UInt16($0) }, address)
    let good = try VerifyReceiptServeTests.call(port, body: try VerifyReceiptServeTests.body(receipt, password: rotated))
    XCTAssertEqual(good.json["status"] as? Int, 0, "\(good.json)")
    let old = try VerifyReceiptServeTests.call(port, body: try VerifyReceiptServeTests.body(receipt, password: first))
    XCTAssertEqual(old.json["status"] as? Int, 21004, "the secret before the rotation: \(old.json)")
  }
}
