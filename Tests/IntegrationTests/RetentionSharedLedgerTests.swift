import Foundation
import StorefrontProcessTestSupport
import XCTest

/// DECISIONS §44: Retention Messaging's configuration is in the ledger, so a process on another
/// data directory ("machine") of the same PostgreSQL ledger, or another process on the same SQLite
/// data directory, sees what one process configured; an earlier build's `retention-messaging.json`
/// is imported once.
final class RetentionSharedLedgerTests: XCTestCase {
  private static let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"

  /// Machine A holds an earlier build's file (the realtime URL) and sets the review state; machine
  /// B, with a data directory of its own, shows that state and its cancel flow calls A's URL.
  func testAnotherMachineOnThePostgreSQLLedgerSeesTheConfigurationAndCallsTheRealtimeURL() throws {
    let uri = try sharedLedgerDatabase("retention")
    let directory = try TemporaryDirectory(self)
    let key = try TeamKey.file(in: directory)
    let endpoint = try WebhookReceiver(behavior: .body(200, "{}"))
    defer { endpoint.stop() }
    let machineA = directory.path("machine-a")
    try FileManager.default.createDirectory(atPath: machineA, withIntermediateDirectories: true)
    try Data(#"{"realtimeURLs":{"Sandbox":"\#(endpoint.url)"}}"#.utf8)
      .write(to: URL(fileURLWithPath: machineA + "/retention-messaging.json"))
    let set = try StorefrontBinary.run(
      ["retention", "review", "rejected", "--data-dir", machineA, "--ledger", uri, "--key-file", key], in: directory)
    XCTAssertEqual(set.status, 0, set.summary)
    XCTAssertTrue(set.stderr.contains("imported Retention Messaging's configuration"), set.stderr)
    XCTAssertTrue(set.stdout.contains("rejected"), set.stdout)
    XCTAssertTrue(FileManager.default.fileExists(atPath: machineA + "/retention-messaging.json.imported"))

    let machineB = directory.path("machine-b")
    let shown = try StorefrontBinary.run(["retention", "review", "--data-dir", machineB, "--ledger", uri, "--key-file", key], in: directory)
    XCTAssertEqual(shown.status, 0, shown.summary)
    XCTAssertEqual(shown.stdout, "Retention Messaging review state: rejected\n")
    let script = "account backend\nset dialogs off\nbuy \(Self.monthly)\nfinish last\ncancel-flow \(Self.monthly)\n"
    let run = try StorefrontBinary.run(
      ["run", "-", "--json", "--data-dir", machineB, "--ledger", uri, "--key-file", key], stdin: Data(script.utf8), in: directory)
    XCTAssertEqual(run.status, 0, run.summary)
    XCTAssertEqual(endpoint.requests.count, 1, "machine B called the realtime URL machine A's file configured: \(run.stdout)")
  }

  /// Two processes on one SQLite data directory: what one sets the next one reads; a bad state is
  /// a usage error that changes nothing.
  func testTheReviewStateIsInTheSQLiteLedger() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let initial = try StorefrontBinary.run(["retention", "review", "--data-dir", data], in: directory)
    XCTAssertEqual(initial.stdout, "Retention Messaging review state: approved\n", initial.summary)
    let set = try StorefrontBinary.run(["retention", "review", "pending", "--data-dir", data], in: directory)
    XCTAssertEqual(set.status, 0, set.summary)
    let bad = try StorefrontBinary.run(["retention", "review", "maybe", "--data-dir", data], in: directory)
    XCTAssertNotEqual(bad.status, 0)
    XCTAssertTrue(bad.stderr.contains("Unknown review state 'maybe'"), bad.stderr)
    let shown = try StorefrontBinary.run(["retention", "review", "--data-dir", data], in: directory)
    XCTAssertEqual(shown.stdout, "Retention Messaging review state: pending\n", shown.summary)
  }
}
