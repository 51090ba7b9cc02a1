import Foundation
import SharedLedgerSecrets
import StoreEngine
import XCTest

@testable import StorefrontCLI

/// One message point: a failure's message carries no label; ``CLIFailure/report(to:)`` adds
/// `Error:` once and gives the exit code, as swift-argument-parser's `MessageInfo.fullText(for:)`.
final class CLIFailureTests: XCTestCase {
  func testTheLabelIsAddedOnceAndTheCodeComesWithIt() {
    let console = CapturedConsole()
    let code = CLIFailure("cannot write '/x': denied.", .cannotCreate, notes: ["  See 'storefront --help'."]).report(to: console)
    XCTAssertEqual(code, .cannotCreate)
    XCTAssertEqual(code.rawValue, 73)
    XCTAssertEqual(console.errorOutput, "Error: cannot write '/x': denied.\n  See 'storefront --help'.\n")
    XCTAssertEqual(console.output, "")
    let quiet = CapturedConsole()
    XCTAssertEqual(CLIFailure.reported(.dataError).report(to: quiet), .dataError)
    XCTAssertEqual(quiet.errorOutput, "", "details already written: nothing more")
  }

  func testErrorsAreClassifiedInOnePlace() {
    XCTAssertEqual(CLIFailure(.busy(path: "/d/ledger.sqlite")).exitCode, .temporaryFailure)
    XCTAssertEqual(CLIFailure(.corrupt(path: "/d/ledger.sqlite", reason: "x")).exitCode, .dataError)
    XCTAssertEqual(CLIFailure(SharedSecretStorage.Failure(description: "no key"), otherwise: .cannotCreate).exitCode, .configuration)
    XCTAssertEqual(CLIFailure(CocoaError(.fileNoSuchFile), otherwise: .cannotCreate).exitCode, .cannotCreate)
    XCTAssertEqual(CLIFailure(EngineError.ledger(.busy(path: "/d/ledger.sqlite")), otherwise: .failure).exitCode, .temporaryFailure)
    XCTAssertEqual(CLIFailure(keys: .unknownKey("K")).message?.hasSuffix("shows them."), true)
  }

  /// A thrown failure reaches standard error once, through main.
  func testMainReportsWhatACommandThrows() {
    let run = CLIRun(["run", "/nonexistent/none.scenario"])
    XCTAssertEqual(run.code, 66)
    XCTAssertEqual(run.errorOutput, "Error: No scenario at '/nonexistent/none.scenario'. Check the path, or use - to read standard input.\n")
    let usage = CLIRun(["transactions", "extra"])
    XCTAssertEqual(usage.code, 64)
    XCTAssertEqual(usage.errorOutput.components(separatedBy: "Error:").count, 2, usage.errorOutput)
    XCTAssertTrue(usage.errorOutput.contains("\nUsage: storefront transactions"), usage.errorOutput)
  }

  /// A missing key-encryption key for the shared ledger is a configuration error (78), said before
  /// any connection is tried (port 1 answers nothing).
  func testAMissingKeyEncryptionKeyIsAConfigurationError() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.path
    let script = directory.appendingPathComponent("sign-in.scenario")
    try "account jake\n".write(to: script, atomically: true, encoding: .utf8)
    let ledger = "postgresql://nobody@127.0.0.1:1/none"
    for arguments in [["keys", "list"], ["run", script.path], ["certificate"], ["keys", "shared-secret"], ["notifications", "url", "off"]] {
      let run = CLIRun(arguments + ["--data-dir", data, "--ledger", ledger])
      XCTAssertEqual(run.code, 78, "\(arguments): \(run.errorOutput)")
      XCTAssertTrue(run.errorOutput.hasPrefix("Error: the shared ledger \(ledger) keeps the sandbox CA's private keys encrypted"), run.errorOutput)
      XCTAssertTrue(run.errorOutput.contains("$STOREFRONT_KEY_ENCRYPTION_KEY"), run.errorOutput)
    }
  }

  func testHelpListsEveryExitCode() {
    let help = CLIRun(["--help"]).output
    for code in [0, 1, 64, 65, 66, 69, 70, 73, 74, 75, 78, 134] {
      XCTAssertTrue(help.contains("\n  \(code) "), "exit code \(code) missing:\n\(help)")
    }
    XCTAssertTrue(help.contains("--clock-start <date|now>"), help)
  }

  /// `"Error:` is written in one place only: every other site throws a failure.
  func testTheLabelIsWrittenInOnePlaceInSources() throws {
    let sources = CLIFiles.packageRoot.appendingPathComponent("Sources")
    guard let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
      return XCTFail("cannot list \(sources.path)")
    }
    var sites: [String] = []
    for case let file as URL in files where file.pathExtension == "swift" {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("\"Error:") {
        sites.append("\(file.lastPathComponent):\(number + 1)")
      }
    }
    XCTAssertEqual(sites.count, 1, "\(sites)")
    XCTAssertTrue(sites.first?.hasPrefix("CLIFailure.swift:") == true, "\(sites)")
  }
}
