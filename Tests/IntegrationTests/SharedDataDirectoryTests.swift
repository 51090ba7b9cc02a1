import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Several storefront processes sharing one data directory (issue 3: "two processes at once").
final class SharedDataDirectoryTests: XCTestCase {
  static let purchasesPerProcess = 50

  func testTwoProcessesAtOnce() throws {
    try runConcurrently(processes: 2)
  }

  func testFourProcessesAtOnce() throws {
    try runConcurrently(processes: 4)
  }

  private func runConcurrently(processes count: Int, file: StaticString = #filePath, line: UInt = #line) throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    var lines = ["set dialogs off"]
    for _ in 0..<Self.purchasesPerProcess { lines += ["buy com.jake.sample.ExInAppPurchase.coins100", "finish last"] }
    lines += ["expect unfinished 0", "expect quantity com.jake.sample.ExInAppPurchase.coins100 \(Self.purchasesPerProcess)"]
    let script = try directory.write("many.scenario", lines.joined(separator: "\n") + "\n")
    // Create the data directory and its CA first, so the processes race on the ledger, not on setup.
    let setup = try StorefrontBinary.run(["certificate", "--data-dir", data, "--out", directory.path("root.pem")], in: directory)
    XCTAssertEqual(setup.status, 0, setup.summary, file: file, line: line)

    let running = try (0..<count).map { index in
      try StorefrontBinary.start(["run", script, "--json", "--account", "buyer\(index)", "--data-dir", data], in: directory)
    }
    let results = try running.map { try $0.wait(timeout: 60, file: file, line: line) }
    var reported: [String] = []
    for (index, result) in results.enumerated() {
      XCTAssertEqual(result.status, 0, "process \(index): \(result.summary)", file: file, line: line)
      XCTAssertFalse(result.stderr.contains("database is locked"), "process \(index): \(result.stderr)", file: file, line: line)
      let purchased = EventLine.parse(result.stdout, source: "process \(index)")
        .filter { $0.event == "transactionUpdated" && $0.state == "purchased" }
      XCTAssertEqual(purchased.count, Self.purchasesPerProcess, "process \(index)", file: file, line: line)
      reported += purchased.compactMap(\.transactionID)
    }

    let listed = try StorefrontBinary.run(["transactions", "--all", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(listed.status, 0, listed.summary, file: file, line: line)
    let rows = EventLine.parse(listed.stdout, source: "transactions --all")
    let purchasedRows = rows.filter { $0.state == "purchased" }
    let ids = purchasedRows.compactMap(\.transactionID)
    XCTAssertEqual(
      purchasedRows.count, count * Self.purchasesPerProcess,
      "\(count) processes each reported \(Self.purchasesPerProcess) purchases (\(reported.count) in all, \(Set(reported).count) distinct ids), but the ledger holds \(purchasedRows.count): a purchase the user was told about was lost",
      file: file, line: line)
    XCTAssertEqual(Set(ids).count, ids.count, "transaction ids in the ledger are not unique", file: file, line: line)
    XCTAssertEqual(Set(reported).count, reported.count, "two processes handed out the same transaction id", file: file, line: line)
    XCTAssertEqual(Set(ids), Set(reported), "the ledger and the processes' output disagree", file: file, line: line)
    for index in 0..<count {
      let mine = rows.filter { $0.object["account"] as? String == "buyer\(index)" }
      XCTAssertEqual(mine.count, Self.purchasesPerProcess, "account buyer\(index)", file: file, line: line)
      XCTAssertTrue(mine.allSatisfy { $0.object["finished"] as? Bool == true }, "buyer\(index) has unfinished transactions", file: file, line: line)
    }

    let integrity = try Self.sqlite(["\(data)/ledger.sqlite", "PRAGMA integrity_check"])
    XCTAssertEqual(integrity.status, 0, integrity.stderr, file: file, line: line)
    XCTAssertEqual(integrity.stdout, "ok\n", file: file, line: line)
  }

  /// The sqlite3 command-line shell.
  static func sqlite(_ arguments: [String]) throws -> ProcessResult {
    try ChildProcess.run("/usr/bin/env", ["sqlite3"] + arguments)
  }
}
