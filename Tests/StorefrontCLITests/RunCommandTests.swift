import Foundation
import XCTest

@testable import StorefrontCLI

/// `storefront run`, in-process: help, usage errors, exit codes and the events it prints.
final class RunCommandTests: XCTestCase {
  static let coins = "com.jake.sample.ExInAppPurchase.coins100"

  func testHelpDescribesEveryOption() {
    let run = CLIRun(["run", "--help"])
    XCTAssertEqual(run.code, 0)
    XCTAssertEqual(run.errorOutput, "")
    XCTAssertTrue(run.output.contains("USAGE: storefront run SCRIPT|- [--json]"), run.output)
    for option in ["--json", "--api <name>", "--environment <name>", "--regenerate-ca", "--data-dir <dir>", "--account <name>", "--seed <n>", "--catalog <path>", "--bundle-id <id>"] {
      XCTAssertTrue(run.output.contains("  \(option) "), option)
    }
    XCTAssertTrue(run.output.contains("65 the scenario has errors"), "help states the exit codes")
    XCTAssertFalse(run.output.contains("not available"))
    XCTAssertEqual(CLIRun(["help", "run"]).output, run.output)
  }

  func testUsageErrorsExit64() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let script = try write("account a\n", to: directory, "a.scenario")
    let data = directory.appendingPathComponent("data").path
    let cases: [([String], String)] = [
      (["run", "--data-dir", data], "Missing SCRIPT"),
      (["run", script, script, "--data-dir", data], "Unexpected argument '\(script)': run takes one SCRIPT."),
      (["run", script, "--environment", "Prod", "--data-dir", data], "Unknown environment 'Prod': use Sandbox, Production or Xcode."),
      (["run", script, "--jsn", "--data-dir", data], "'--jsn'"),
      (["run", script, "--environment"], "--environment"),
      (["run", script, "--api", "storekit3", "--data-dir", data], "Unknown API 'storekit3': use storekit1 or storekit2."),
    ]
    for (arguments, message) in cases {
      let run = CLIRun(arguments)
      XCTAssertEqual(run.code, 64, arguments.joined(separator: " "))
      XCTAssertTrue(run.errorOutput.contains(message), "\(arguments): \(run.errorOutput)")
      XCTAssertTrue(run.errorOutput.contains("Usage: storefront run"), run.errorOutput)
      XCTAssertEqual(run.output, "")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: data), "a usage error must not create the data directory")
  }

  func testMissingUnreadableAndDirectoryScriptsExit66() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let missing = directory.appendingPathComponent("missing.scenario").path
    let run = CLIRun(["run", missing, "--data-dir", data])
    XCTAssertEqual(run.code, 66)
    XCTAssertEqual(run.errorOutput, "Error: No scenario at '\(missing)'. Check the path, or use - to read standard input.\n")
    let folder = CLIRun(["run", directory.path, "--data-dir", data])
    XCTAssertEqual(folder.code, 66)
    XCTAssertTrue(folder.errorOutput.contains("is a directory"), folder.errorOutput)
    let binary = directory.appendingPathComponent("latin1.scenario")
    try Data([0x61, 0x63, 0x63, 0x6F, 0x75, 0x6E, 0x74, 0x20, 0xE9, 0x0A]).write(to: binary)
    let latin1 = CLIRun(["run", binary.path, "--data-dir", data])
    XCTAssertEqual(latin1.code, 66)
    XCTAssertTrue(latin1.errorOutput.contains("is not UTF-8 text"), latin1.errorOutput)
  }

  func testMissingCatalogExits66() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let script = try write("account a\n", to: directory, "a.scenario")
    let catalog = directory.appendingPathComponent("none.storekit").path
    let run = CLIRun(["run", script, "--catalog", catalog, "--data-dir", directory.appendingPathComponent("data").path])
    XCTAssertEqual(run.code, 66)
    XCTAssertTrue(run.errorOutput.contains("'\(catalog)'"), run.errorOutput)
  }

  func testScenarioErrorsExit65WithEveryLocation() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let script = try write("account a\nstore-payment nothing.here\nadvance soon\nfail purchase nonsense\n", to: directory, "bad.scenario")
    let run = CLIRun(["run", script, "--data-dir", directory.appendingPathComponent("data").path])
    XCTAssertEqual(run.code, 65)
    let lines = run.errorOutput.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 4, run.errorOutput)
    XCTAssertEqual(lines.dropLast().map { $0.hasPrefix("\(script):") }, [true, true, true])
    XCTAssertEqual(lines.dropLast().map { String($0.dropFirst(script.count + 1).prefix(2)) }, ["2:", "3:", "4:"])
    XCTAssertEqual(lines.last, "\(script): 3 problems; nothing was run.")
    XCTAssertEqual(run.output, "")
  }

  func testPassingScenarioPrintsJSONEventsAndExitsZero() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let script = try write("set dialogs off\nbuy \(Self.coins) quantity=2\nexpect unfinished 1\nfinish last\n", to: directory, "ok.scenario")
    let run = CLIRun(["run", script, "--json", "--account", "cli-user", "--data-dir", directory.appendingPathComponent("data").path])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertEqual(run.errorOutput, "")
    let objects = try run.output.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    // --account signs in before the app launches, so no observer hears of it; the purchases carry it.
    XCTAssertEqual(objects.map { $0["event"] as? String }, ["transactionUpdated", "transactionUpdated", "transactionRemoved"])
    XCTAssertEqual(objects.map { $0["account"] as? String }, ["cli-user", "cli-user", "cli-user"])
    XCTAssertEqual(objects[1]["state"] as? String, "purchased")
    XCTAssertEqual(objects[1]["quantity"] as? Int, 2)
    XCTAssertNotNil(objects[1]["signedTransaction"] as? String)
    XCTAssertEqual(objects.compactMap { $0["line"] as? Int }, [2, 2, 4])
  }

  func testReadableOutputAndFailingExpectExit1() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let script = try write("account a\nset dialogs off\nbuy \(Self.coins)\nexpect quantity \(Self.coins) 5\n", to: directory, "fail.scenario")
    let run = CLIRun(["run", script, "--data-dir", directory.appendingPathComponent("data").path])
    XCTAssertEqual(run.code, 1)
    XCTAssertEqual(run.errorOutput, "\(script):4: expectation failed: expected 5 units of \(Self.coins) bought, but 1 were\n")
    XCTAssertTrue(run.output.contains("updatedTransactions: \(Self.coins) purchased (id 2000000000000001, original 2000000000000001, quantity 1)"), run.output)
  }

  func testXcodeEnvironmentSignsWithOneSelfSignedCertificate() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let script = try write("account a\nset dialogs off\nbuy \(Self.coins)\n", to: directory, "x.scenario")
    let run = CLIRun(["run", script, "--json", "--environment", "Xcode", "--data-dir", directory.appendingPathComponent("data").path])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let last = try XCTUnwrap(run.output.split(separator: "\n").last)
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    let jws = try XCTUnwrap(object["signedTransaction"] as? String)
    let header = try XCTUnwrap(decodeSegment(jws, 0))
    XCTAssertEqual((header["x5c"] as? [Any])?.count, 1)
    XCTAssertEqual(try XCTUnwrap(decodeSegment(jws, 1))["environment"] as? String, "Xcode")
  }

  func testDamagedCARefusesToSignUntilRegenerated() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data")
    let script = try write("account a\nset dialogs off\nbuy \(Self.coins)\nfinish last\n", to: directory, "a.scenario")
    XCTAssertEqual(CLIRun(["run", script, "--data-dir", data.path]).code, 0)
    try Data("not a certificate\n".utf8).write(to: data.appendingPathComponent("ca/root-ca.pem"))
    let refused = CLIRun(["run", script, "--data-dir", data.path])
    XCTAssertEqual(refused.code, 73)
    XCTAssertTrue(refused.errorOutput.contains("root-ca.pem"), refused.errorOutput)
    XCTAssertTrue(refused.errorOutput.contains("--regenerate-ca"), refused.errorOutput)
    let regenerated = CLIRun(["run", script, "--regenerate-ca", "--data-dir", data.path])
    XCTAssertEqual(regenerated.code, 0, regenerated.errorOutput)
  }

  // B69: `run --api storekit2` prints what a StoreKit 2 app sees, with the real signer (so a
  // verification failure shows as `unverified` on a real ES256 JWS) and the same exit codes.
  func testB69APIStoreKit2PrintsTheStoreKit2View() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let script = try write("""
      account a
      set dialogs off
      buy \(Self.coins)
      fail verification unknown
      buy \(Self.coins)
      fail purchase notEntitled
      buy \(Self.coins)
      app-transaction
      expect purchase-result threw notEntitled
      """, to: directory, "sk2.scenario")
    let data = directory.appendingPathComponent("data").path
    let run = CLIRun(["run", script, "--json", "--api", "storekit2", "--environment", "Xcode", "--data-dir", data])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let objects = try run.output.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    XCTAssertEqual(objects.map { $0["event"] as? String }, ["accountChanged", "purchaseResult", "purchaseResult", "purchaseError", "appTransaction"])
    XCTAssertEqual(objects[1]["verification"] as? String, "verified")
    XCTAssertEqual(objects[2]["verification"] as? String, "unverified")
    XCTAssertEqual((objects[3]["error"] as? [String: Any])?["name"] as? String, "notEntitled")
    XCTAssertEqual(objects[4]["environment"] as? String, "Xcode")
    let text = CLIRun(["run", script, "--api", "storekit2", "--data-dir", data])
    XCTAssertEqual(text.code, 0, text.errorOutput)
    XCTAssertTrue(text.output.contains("purchase(): \(Self.coins) success verified (id "), text.output)
    XCTAssertFalse(text.output.contains("updatedTransactions"), text.output)
  }

  private func write(_ text: String, to directory: URL, _ name: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  private func decodeSegment(_ jws: String, _ index: Int) -> [String: Any]? {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard index < parts.count else { return nil }
    var base64 = parts[index].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
  }
}
