import Foundation
import PostgreSQLLedger
import StorefrontProcessTestSupport
import XCTest

/// The sandbox CA in the shared PostgreSQL ledger: two data directories ("machines") sign with one
/// chain, the private keys are stored sealed (AES-256-GCM), and a missing or wrong key-encryption
/// key is a clear error.
final class SharedCATests: XCTestCase {
  private func database(_ label: String) throws -> String { try sharedLedgerDatabase(label) }

  func testTwoMachinesSignWithOneChainAndTheKeysAreSealed() throws {
    let uri = try database("sharedca")
    let directory = try TemporaryDirectory(self)
    let key = try TeamKey.file(in: directory)
    let script = "set dialogs off\nbuy com.jake.sample.ExInAppPurchase.coins100\nfinish last\n"
    let run = try StorefrontBinary.run(
      ["run", "-", "--json", "--data-dir", directory.path("machine-a"), "--ledger", uri, "--key-file", key, "--account", "jake"], stdin: Data(script.utf8),
      in: directory)
    XCTAssertEqual(run.status, 0, run.summary)
    let events = try directory.write("events.jsonl", run.stdout)

    // Machine B never ran anything: its root is the database's, and it verifies A's signatures.
    let verify = try StorefrontBinary.run(
      ["verify", "--data-dir", directory.path("machine-b"), "--ledger", uri, "--key-file", key, events], in: directory)
    XCTAssertEqual(verify.status, 0, verify.summary)
    XCTAssertTrue(verify.stderr.contains("signatures verified"), verify.stderr)
    let rootA = try StorefrontBinary.run(["certificate", "--data-dir", directory.path("machine-a"), "--ledger", uri, "--key-file", key], in: directory)
    let rootB = try StorefrontBinary.run(["certificate", "--data-dir", directory.path("machine-b"), "--ledger", uri, "--key-file", key], in: directory)
    XCTAssertEqual(rootA.status, 0, rootA.summary)
    XCTAssertEqual(rootA.stdout, rootB.stdout)
    XCTAssertTrue(rootA.stdout.contains("BEGIN CERTIFICATE"))
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory.path("machine-a") + "/ca/root-ca.key.pem"), "no CA key files on the machine")

    // Stored sealed: no PEM private key in the database.
    let table = try PostgreSQLSecretTable(address: PostgreSQLAddress(uri))
    let names = ["root-ca.key.pem", "intermediate-ca.key.pem", "signing.key.pem", "promotional-offer-key.pem"]
    let stored = try table.values(names + ["root-ca.pem"])
    for name in names {
      let value = try XCTUnwrap(stored[name], name)
      XCTAssertTrue(value.hasPrefix("sf1:"), name)
      XCTAssertFalse(value.contains("PRIVATE KEY"), name)
    }
    XCTAssertTrue(stored["root-ca.pem"]?.contains("BEGIN CERTIFICATE") == true)

    // Another key, or none: refused with what to do, never the key.
    let wrong = try directory.write("wrong.key", String(repeating: "ab", count: 32) + "\n")
    let refused = try StorefrontBinary.run(
      ["run", "-", "--data-dir", directory.path("machine-c"), "--ledger", uri, "--key-file", wrong, "--account", "jake"], stdin: Data(script.utf8),
      in: directory)
    XCTAssertNotEqual(refused.status, 0)
    XCTAssertTrue(refused.stderr.contains("cannot be decrypted with this key-encryption key"), refused.stderr)
    XCTAssertFalse(refused.stderr.contains(String(repeating: "ab", count: 32)), refused.stderr)
    let missing = try StorefrontBinary.run(
      ["run", "-", "--data-dir", directory.path("machine-c"), "--ledger", uri, "--account", "jake"], stdin: Data(script.utf8), in: directory)
    XCTAssertNotEqual(missing.status, 0)
    XCTAssertTrue(missing.stderr.contains("$STOREFRONT_KEY_ENCRYPTION_KEY"), missing.stderr)
  }
}
