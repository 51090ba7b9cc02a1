import Foundation
import XCTest

@testable import StorefrontCLI

/// `storefront verify`, in-process: what a backend's check of signed transactions looks like.
final class VerifyCommandTests: XCTestCase {
  func testHelpDescribesEveryOption() {
    let run = CLIRun(["verify", "--help"])
    XCTAssertEqual(run.code, 0)
    XCTAssertTrue(run.output.contains("USAGE: storefront verify [--root <cert>] [--bundle-id <id>] [--environment Sandbox|Production|Xcode] FILE|-"), run.output)
    for option in ["--root <cert>", "--environment <name>", "--bundle-id <id>", "--data-dir <dir>"] {
      XCTAssertTrue(run.output.contains("  \(option) "), option)
    }
    XCTAssertTrue(run.output.contains("signedRenewalInfo"), "help says it reads run --json lines")
  }

  func testUsageErrorsExit64() {
    let missing = CLIRun(["verify"])
    XCTAssertEqual(missing.code, 64)
    XCTAssertTrue(missing.errorOutput.contains("Missing FILE"), missing.errorOutput)
    let two = CLIRun(["verify", "a.jws", "b.jws"])
    XCTAssertEqual(two.code, 64)
    XCTAssertTrue(two.errorOutput.contains("Unexpected argument 'b.jws': verify takes one FILE."), two.errorOutput)
    let noValue = CLIRun(["verify", "a.jws", "--root"])
    XCTAssertEqual(noValue.code, 64)
    XCTAssertTrue(noValue.errorOutput.contains("--root"), noValue.errorOutput)
  }

  func testMissingInputsExit66() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let file = directory.appendingPathComponent("none.jsonl").path
    let noFile = CLIRun(["verify", file, "--data-dir", directory.path])
    XCTAssertEqual(noFile.code, 66)
    XCTAssertTrue(noFile.errorOutput.contains("'\(file)'"), noFile.errorOutput)

    let signed = try signedEvents(in: directory)
    let root = directory.appendingPathComponent("missing-root.pem").path
    let noRoot = CLIRun(["verify", "--root", root, signed.file])
    XCTAssertEqual(noRoot.code, 66)
    XCTAssertTrue(noRoot.errorOutput.contains("'\(root)'") && noRoot.errorOutput.contains("storefront certificate --out"), noRoot.errorOutput)

    let empty = directory.appendingPathComponent("empty-data").path
    let noCA = CLIRun(["verify", "--data-dir", empty, signed.file])
    XCTAssertEqual(noCA.code, 66)
    XCTAssertTrue(noCA.errorOutput.contains("No sandbox CA in '\(empty)'"), noCA.errorOutput)

    let junk = directory.appendingPathComponent("junk.pem")
    try Data("hello\n".utf8).write(to: junk)
    let notACertificate = CLIRun(["verify", "--root", junk.path, signed.file])
    XCTAssertEqual(notACertificate.code, 66)
    XCTAssertTrue(notACertificate.errorOutput.contains("is not a PEM or DER certificate"), notACertificate.errorOutput)
  }

  func testRunOutputVerifiesAndPrintsEachPayload() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let signed = try signedEvents(in: directory)
    let run = CLIRun(["verify", "--data-dir", signed.data, signed.file])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertEqual(run.errorOutput, "\(signed.file): \(signed.count) signatures verified.\n")
    let payloads = run.output.split(separator: "\n")
    XCTAssertEqual(payloads.count, signed.count)
    XCTAssertTrue(payloads.contains { $0.contains("\"autoRenewProductId\"") }, "the subscription's renewal info is verified too")
    for payload in payloads {
      let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
      XCTAssertEqual(object["environment"] as? String, "Sandbox")
      // Renewal info has no bundle id; transactions do.
      if object["transactionId"] != nil { XCTAssertEqual(object["bundleId"] as? String, "com.example.storefront") }
    }
  }

  func testRejectionsExit1NamingTheLine() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let signed = try signedEvents(in: directory)
    let garbage = directory.appendingPathComponent("garbage.txt")
    try Data("\n# not a jws\n".utf8).write(to: garbage)
    let malformed = CLIRun(["verify", "--data-dir", signed.data, garbage.path])
    XCTAssertEqual(malformed.code, 1)
    XCTAssertTrue(malformed.errorOutput.hasPrefix("\(garbage.path):2: rejected (malformed)"), malformed.errorOutput)

    let bundle = CLIRun(["verify", "--bundle-id", "com.other", "--data-dir", signed.data, signed.file])
    XCTAssertEqual(bundle.code, 1)
    XCTAssertTrue(bundle.errorOutput.hasPrefix("\(signed.file):\(signed.firstLine): rejected (wrongBundleID)"), bundle.errorOutput)

    let environment = CLIRun(["verify", "--environment", "Xcode", "--data-dir", signed.data, signed.file])
    XCTAssertEqual(environment.code, 1)
    XCTAssertTrue(environment.errorOutput.hasPrefix("\(signed.file):\(signed.firstLine): rejected (wrongEnvironment)"), environment.errorOutput)
  }

  // Surprising behaviour (verify every line): every broken line is named, then a summary with counts.
  func testEveryRejectedLineIsReportedWithASummary() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let script = directory.appendingPathComponent("broken.scenario")
    try Data("""
      account v
      set dialogs off
      buy com.jake.sample.ExInAppPurchase.coins100
      fail verification unknown
      buy com.jake.sample.ExInAppPurchase.coins500
      buy com.jake.sample.ExInAppPurchase.shopping
      fail verification off
      buy com.jake.sample.ExInAppPurchase.coins100

      """.utf8).write(to: script)
    let run = CLIRun(["run", script.path, "--json", "--data-dir", data])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let file = directory.appendingPathComponent("events.jsonl")
    try Data(run.output.utf8).write(to: file)
    let signedLines = run.output.split(separator: "\n").enumerated().filter { $0.element.contains("signedTransaction") }.map { $0.offset + 1 }
    XCTAssertEqual(signedLines.count, 4)

    let verify = CLIRun(["verify", "--data-dir", data, file.path])
    XCTAssertEqual(verify.code, 1)
    XCTAssertEqual(verify.output.split(separator: "\n").count, 2, "the good lines are still printed")
    let messages = verify.errorOutput.split(separator: "\n").map(String.init)
    XCTAssertEqual(messages.count, 3, verify.errorOutput)
    XCTAssertTrue(messages[0].hasPrefix("\(file.path):\(signedLines[1]): rejected (tampered)"), messages[0])
    XCTAssertTrue(messages[1].hasPrefix("\(file.path):\(signedLines[2]): rejected (tampered)"), messages[1])
    XCTAssertEqual(messages[2], "\(file.path): 2 signatures verified, 2 rejected.")
  }

  func testAFileWithoutSignedDataExits65() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let signed = try signedEvents(in: directory)
    let unsigned = directory.appendingPathComponent("unsigned.jsonl")
    try Data("{\"event\":\"restoreFinished\",\"restoredCount\":0}\n\n".utf8).write(to: unsigned)
    let run = CLIRun(["verify", "--data-dir", signed.data, unsigned.path])
    XCTAssertEqual(run.code, 65)
    XCTAssertEqual(run.errorOutput, "\(unsigned.path): no signed data found; expected one JWS per line.\n")
  }

  func testXcodeSignedDataVerifiesAsXcode() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let signed = try signedEvents(in: directory, arguments: ["--environment", "Xcode"])
    let asXcode = CLIRun(["verify", "--environment", "Xcode", "--data-dir", signed.data, signed.file])
    XCTAssertEqual(asXcode.code, 0, asXcode.errorOutput)
    let asSandbox = CLIRun(["verify", "--data-dir", signed.data, signed.file])
    XCTAssertEqual(asSandbox.code, 1)
    XCTAssertTrue(asSandbox.errorOutput.contains(":\(signed.firstLine): rejected (chainLength)"), asSandbox.errorOutput)
  }

  /// Runs a purchase with --json in-process and saves the output; returns where and how many JWS it holds.
  private func signedEvents(in directory: URL, arguments: [String] = []) throws -> (data: String, file: String, count: Int, firstLine: Int) {
    let data = directory.appendingPathComponent("data").path
    let script = directory.appendingPathComponent("buy.scenario")
    try Data("account v\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.coins100\nfinish last\nbuy com.jake.sample.ExInAppPurchase.premium.monthly\n".utf8)
      .write(to: script)
    let run = CLIRun(["run", script.path, "--json", "--data-dir", data] + arguments)
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let file = directory.appendingPathComponent("events.jsonl")
    try Data(run.output.utf8).write(to: file)
    var count = 0
    var firstLine = 0
    for (index, line) in run.output.split(separator: "\n").enumerated() {
      let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let here = ["signedTransaction", "signedRenewalInfo"].filter { object[$0] is String }.count
      if here > 0, firstLine == 0 { firstLine = index + 1 }
      count += here
    }
    XCTAssertGreaterThan(count, 2)
    return (data, file.path, count, firstLine)
  }
}

final class VerifyEnvironmentOptionTests: XCTestCase {
  func testUnknownEnvironmentIsAUsageError() {
    let run = CLIRun(["verify", "--environment", "Prod", "-"])
    XCTAssertEqual(run.code, 64)
    XCTAssertTrue(run.errorOutput.contains("Unknown environment 'Prod': use Sandbox, Production or Xcode."), run.errorOutput)
  }
}
