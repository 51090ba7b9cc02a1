import Foundation
import StorefrontProcessTestSupport
import XCTest

/// `storefront run` exit codes and messages, through the real process (sysexits; issue 6).
final class RunExitCodeTests: XCTestCase {
  func testScenarioWithErrorsExits65ListingEveryProblemAndRunsNothing() throws {
    let directory = try TemporaryDirectory(self)
    let script = try directory.write(
      "bad.scenario",
      """
      account ana
      buyy com.jake.sample.ExInAppPurchase.coins100
      buy com.example.missing
      set ask-to-buy maybe
      # a comment is fine
      expect bogus 1
      finish
      """)
    let data = directory.path("data")
    let result = try StorefrontBinary.run(["run", script, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(result.status, 65, result.summary)
    XCTAssertEqual(result.stdout, "", "nothing may run when the scenario has errors")
    let problems = result.stderr.split(separator: "\n").filter { $0.hasPrefix("\(script):") && !$0.hasPrefix("\(script): ") }
    let locations = problems.map { $0.dropFirst(script.count + 1).split(separator: ":").prefix(2).joined(separator: ":") }
    XCTAssertEqual(locations, ["2:1", "3:5", "4:16", "6:8", "7:8"], result.stderr)
    XCTAssertTrue(result.stderr.contains("\(script):2:1: Unknown verb 'buyy'. Did you mean 'buy'?"), result.stderr)
    // B70: buying a product the catalog lacks is a warning, listed in its place.
    XCTAssertTrue(result.stderr.contains("\(script):3:5: warning: Product 'com.example.missing' is not in the catalog"), result.stderr)
    XCTAssertTrue(result.stderr.contains("\(problems.count - 1) problems; nothing was run."), result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: data), "a scenario with errors must not create the data directory")
  }

  func testFailingExpectExits1NamingTheLineWithExpectedAndActual() throws {
    let directory = try TemporaryDirectory(self)
    let script = try directory.write(
      "expect.scenario",
      """
      account ana
      set dialogs off
      buy com.jake.sample.ExInAppPurchase.coins100 quantity=2
      expect quantity com.jake.sample.ExInAppPurchase.coins100 2
      expect unfinished 3
      finish last
      """)
    let result = try StorefrontBinary.run(["run", script, "--json", "--data-dir", directory.path("data")], in: directory)
    XCTAssertEqual(result.status, 1, result.summary)
    XCTAssertEqual(
      result.stderr,
      "\(script):5: expectation failed: expected 3 unfinished transactions, but there are 1: 2000000000000001 com.jake.sample.ExInAppPurchase.coins100 purchased\n")
    // Events up to the failing line were printed; the line after it never ran.
    let events = EventLine.parse(result.stdout, source: "expect.scenario")
    XCTAssertEqual(events.last?.state, "purchased")
    XCTAssertFalse(events.contains { $0.event == "transactionRemoved" })
  }

  func testFailingExpectInReadableModeAlsoExits1() throws {
    let directory = try TemporaryDirectory(self)
    let script = try directory.write("owned.scenario", "account ana\nexpect owned com.jake.sample.ExInAppPurchase.shopping\n")
    let result = try StorefrontBinary.run(["run", script, "--data-dir", directory.path("data")], in: directory)
    XCTAssertEqual(result.status, 1, result.summary)
    XCTAssertTrue(
      result.stderr.contains("\(script):2: expectation failed: expected com.jake.sample.ExInAppPurchase.shopping to be owned, but it is not owned"),
      result.stderr)
  }

  func testExpectAboutATransactionThatDoesNotExistFails() throws {
    let directory = try TemporaryDirectory(self)
    let script = try directory.write("none.scenario", "account ana\nexpect state last purchased\n")
    let result = try StorefrontBinary.run(["run", script, "--data-dir", directory.path("data")], in: directory)
    XCTAssertEqual(result.status, 1, "an expect about a missing transaction must not pass: \(result.summary)\nstdout:\n\(result.stdout)")
    XCTAssertTrue(result.stderr.hasPrefix("\(script):2: expectation failed: "), result.stderr)
  }

  func testMissingScriptExits66NamingThePath() throws {
    let directory = try TemporaryDirectory(self)
    let missing = directory.path("nope.scenario")
    let result = try StorefrontBinary.run(["run", missing, "--data-dir", directory.path("data")], in: directory)
    XCTAssertEqual(result.status, 66, result.summary)
    XCTAssertTrue(result.stderr.contains("'\(missing)'"), result.stderr)
    XCTAssertEqual(result.stdout, "")
  }

  func testDashReadsTheScenarioFromStandardInput() throws {
    let directory = try TemporaryDirectory(self)
    let script = """
      account stdin-user
      set dialogs off
      buy com.jake.sample.ExInAppPurchase.coins100
      finish last
      expect unfinished 0
      """
    let result = try StorefrontBinary.run(["run", "-", "--json", "--data-dir", directory.path("data")], stdin: Data(script.utf8), in: directory)
    XCTAssertEqual(result.status, 0, result.summary)
    let events = EventLine.parse(result.stdout, source: "stdin")
    XCTAssertEqual(events.map { $0.event ?? "" }, ["accountChanged", "transactionUpdated", "transactionUpdated", "transactionRemoved"])
    XCTAssertEqual(events.map(\.scenarioLine), [1, 3, 3, 4])
  }

  func testErrorsInStandardInputAreReportedAsStdin() throws {
    let directory = try TemporaryDirectory(self)
    let result = try StorefrontBinary.run(
      ["run", "-", "--data-dir", directory.path("data")], stdin: Data("account a\nexpect unfinished lots\n".utf8), in: directory)
    XCTAssertEqual(result.status, 65, result.summary)
    XCTAssertTrue(result.stderr.hasPrefix("<stdin>:2:"), result.stderr)
  }

  func testUnknownOptionExits64WithUsage() throws {
    let directory = try TemporaryDirectory(self)
    let script = try directory.write("ok.scenario", "account a\n")
    let result = try StorefrontBinary.run(["run", script, "--jsonn", "--data-dir", directory.path("data")], in: directory)
    XCTAssertEqual(result.status, 64, result.summary)
    XCTAssertTrue(result.stderr.contains("'--jsonn'"), result.stderr)
    XCTAssertTrue(result.stderr.contains("Usage: storefront run"), result.stderr)
    XCTAssertEqual(result.stdout, "")
  }

  func testMissingScriptOperandExits64() throws {
    let directory = try TemporaryDirectory(self)
    let result = try StorefrontBinary.run(["run", "--json", "--data-dir", directory.path("data")], in: directory)
    XCTAssertEqual(result.status, 64, result.summary)
    XCTAssertTrue(result.stderr.contains("Missing SCRIPT"), result.stderr)
  }
}
