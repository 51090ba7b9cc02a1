import Foundation
import XCTest

@testable import StorefrontCLI

/// `storefront keys create|import|list|revoke`, in-process.
final class KeysCommandTests: XCTestCase {
  func testCreateWithASeedRepeatsAndPrintsWhatABackendNeeds() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let run = CLIRun(["keys", "create", "--name", "ci", "--seed", "3", "--data-dir", directory.appendingPathComponent("a").path])
    let again = CLIRun(["keys", "create", "--name", "ci", "--seed", "3", "--data-dir", directory.appendingPathComponent("b").path])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let lines = run.output.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines[0].hasPrefix("Created API key ") && lines[0].hasSuffix(" (ci)."), lines[0])
    let keyID = String(lines[2].dropFirst("  Key ID:      ".count))
    XCTAssertEqual(keyID.count, 10)
    XCTAssertEqual(lines[1], "  Private key: \(directory.path)/a/keys/AuthKey_\(keyID).p8")
    XCTAssertTrue(lines[3].hasPrefix("  Issuer ID:   "))
    XCTAssertEqual(lines[4], "  Bundle ID:   com.example.storefront")
    XCTAssertEqual(again.output.replacingOccurrences(of: "/b/", with: "/a/"), run.output)
    XCTAssertFalse(run.output.contains("PRIVATE KEY"))
  }

  func testListShowsKeysAndRevocation() throws {
    let data = try CLIFiles.temporaryDirectory(self).path
    XCTAssertEqual(CLIRun(["keys", "list", "--data-dir", data]).output, "No API keys in this data directory: `storefront keys create` makes one.\n")
    let created = CLIRun(["keys", "create", "--json", "--data-dir", data])
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: String])
    let keyID = try XCTUnwrap(object["keyId"])
    XCTAssertEqual(CLIRun(["keys", "revoke", keyID, "--data-dir", data]).output, "Revoked API key \(keyID).\n")
    let list = CLIRun(["keys", "list", "--data-dir", data])
    XCTAssertTrue(list.output.hasPrefix("KEY ID      NAME"), list.output)
    XCTAssertTrue(list.output.contains(keyID) && list.output.hasSuffix("revoked\n"), list.output)
    let json = CLIRun(["keys", "list", "--json", "--data-dir", data])
    let row = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    XCTAssertEqual(row["keyId"] as? String, keyID)
    XCTAssertNotNil(row["revoked"] as? String)
  }

  func testRevokeOfAnUnknownKeyFails() throws {
    let data = try CLIFiles.temporaryDirectory(self).path
    let run = CLIRun(["keys", "revoke", "NOSUCHKEY1", "--data-dir", data])
    XCTAssertEqual(run.code, 65)
    XCTAssertTrue(run.errorOutput.hasPrefix("Error: no API key 'NOSUCHKEY1'"), run.errorOutput)
    XCTAssertEqual(CLIRun(["keys", "revoke", "--data-dir", data]).code, 64)
  }

  func testImportNeedsAKeyIDAnIssuerAndAKeyFile() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let created = CLIRun(["keys", "create", "--json", "--data-dir", directory.appendingPathComponent("elsewhere").path])
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: String])
    let file = try XCTUnwrap(object["privateKeyFile"])
    let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    XCTAssertEqual(CLIRun(["keys", "import", file, "--issuer", issuer, "--data-dir", data]).code, 64)
    XCTAssertEqual(CLIRun(["keys", "import", file, "--key-id", "2X9R4HXF34", "--data-dir", data]).code, 64)
    XCTAssertEqual(CLIRun(["keys", "import", "--key-id", "2X9R4HXF34", "--issuer", issuer, "--data-dir", data]).code, 64)
    XCTAssertEqual(CLIRun(["keys", "import", file, "--key-id", "bad", "--issuer", issuer, "--data-dir", data]).code, 64)
    XCTAssertEqual(CLIRun(["keys", "import", directory.path + "/missing.p8", "--key-id", "2X9R4HXF34", "--issuer", issuer, "--data-dir", data]).code, 66)
    let run = CLIRun(["keys", "import", file, "--key-id", "2X9R4HXF34", "--issuer", issuer, "--data-dir", data])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertEqual(run.output, "Imported API key 2X9R4HXF34 (issuer \(issuer)).\n")
    XCTAssertTrue(CLIRun(["keys", "list", "--data-dir", data]).output.contains("2X9R4HXF34"))
  }

  func testKeysGroupHelpListsItsSubcommands() {
    let run = CLIRun(["keys"])
    XCTAssertEqual(run.code, 0)
    XCTAssertTrue(run.output.hasPrefix("OVERVIEW: Manage the API keys `storefront serve` accepts.\n"), run.output)
    let help = CLIRun(["help", "keys"])
    for name in ["create", "import", "list", "revoke"] {
      XCTAssertTrue(help.output.contains("  \(name) "), help.output)
    }
  }
}
