import Foundation
import XCTest

/// Two to four `storefront run` processes buying and finishing on one data directory at once: every
/// purchase each reports is in the ledger exactly once, and none fails with "database is locked".
final class ConcurrentProcessesTests: XCTestCase {
  private let coins = ScenarioGenerator.prefix + "coins100"
  private let gems = ScenarioGenerator.prefix + "coins500"

  /// A script of `purchases` buys, each finished at once or later, with restores and clock moves
  /// in between so that writes of different kinds interleave.
  private func script(purchases: Int, seed: UInt64) -> String {
    var random = SeededGenerator(seed: seed)
    var lines = ["set dialogs off"]
    for index in 0..<purchases {
      lines.append("buy \(index % 3 == 0 ? gems : coins) quantity=\(1 + index % 4)")
      switch Int.random(in: 0..<10, using: &random) {
      case 0: lines.append("restore")
      case 1: lines.append("advance 1h")
      case 2: break  // finished by the final `finish all`
      default: lines.append("finish last")
      }
    }
    lines.append("finish all")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Runs process `index` as `--account buyer<index>`: each process signs in before its launch, so
  /// it redelivers only its own unfinished transactions. (With one shared account, a process that
  /// launches while another has a purchase `purchasing` takes it for an abandoned one and shows its
  /// sheet again; see `testSharedAccountLaunchDoesNotAdoptAnotherProcesssPurchase`.)
  private func runTogether(_ scripts: [String], dataDir: URL) -> [ProcessResult?] {
    let results = ResultBox(count: scripts.count)
    DispatchQueue.concurrentPerform(iterations: scripts.count) { index in
      let result = try? StorefrontProcess.run(
        ["run", "-", "--json", "--data-dir", dataDir.path, "--account", "buyer\(index)"], input: Data(scripts[index].utf8))
      results.set(index, result)
    }
    return results.values
  }

  func testTwoToFourProcessesLoseAndDuplicateNothing() throws {
    let long = ProcessInfo.processInfo.environment["STOREFRONT_LONG"] == "1"
    var totalChecked = 0
    var seed: UInt64 = 7
    for processes in [2, 3, 4, 4] {
      let dataDir = try Scratch.directory(self, "concurrent")
      let scripts = (0..<processes).map { _ -> String in
        seed += 1
        return script(purchases: long ? 120 : 30, seed: seed)
      }
      let results = runTogether(scripts, dataDir: dataDir)
      var reported: [String: String] = [:]
      for (index, result) in results.enumerated() {
        guard let result else {
          XCTFail("\(processes) processes: process \(index) could not be started")
          continue
        }
        XCTAssertEqual(result.status, 0, "\(processes) processes: process \(index) exited \(result.status): \(result.errorOutput)")
        XCTAssertFalse(result.errorOutput.contains("locked"), "\(processes) processes: process \(index): \(result.errorOutput)")
        for event in result.lines.compactMap(jsonObject) where event["event"] as? String == "transactionUpdated" && event["line"] != nil {
          guard let record = TransactionRecord(json: event), record.state == "purchased", record.id == record.originalID else { continue }
          if let other = reported[record.id], other != "\(index)" {
            XCTFail("\(processes) processes: transaction \(record.id) was reported purchased by processes \(other) and \(index)")
          }
          reported[record.id] = "\(index)"
        }
        let purchases = Set(result.lines.compactMap(jsonObject).compactMap { event -> String? in
          guard event["event"] as? String == "transactionUpdated", event["line"] != nil,
            let record = TransactionRecord(json: event), record.state == "purchased", record.id == record.originalID
          else { return nil }
          return record.id
        })
        XCTAssertEqual(purchases.count, long ? 120 : 30, "\(processes) processes: process \(index) did not complete every purchase")
      }
      let ledger = try LedgerView.read(dataDir)
      XCTAssertEqual(try LedgerView.integrity(dataDir), "ok")
      let purchased = ledger.transactions.filter { $0.state == "purchased" && $0.id == $0.originalID }
      XCTAssertEqual(purchased.count, reported.count, "\(processes) processes: the ledger holds \(purchased.count) purchases, the processes reported \(reported.count)")
      for id in reported.keys { XCTAssertNotNil(ledger.byID[id], "\(processes) processes: purchase \(id) was reported but is not in the ledger") }
      XCTAssertEqual(purchased.count, processes * (long ? 120 : 30), "\(processes) processes: purchases in the ledger")
      XCTAssertTrue(ledger.transactions.allSatisfy(\.finished), "\(processes) processes: every script ends with finish all")
      totalChecked += reported.count
      if testRun?.failureCount ?? 0 > 0 { break }
    }
    print("Concurrent processes: \(totalChecked) purchases checked across runs of 2, 3, 4 and 4 processes")
  }

  /// Known issue, skipped unless `STOREFRONT_KNOWN_ISSUES=1`: two processes signed in as the same
  /// account. A process that launches while the other has a purchase `purchasing` (committed, not yet
  /// answered) redelivers it as abandoned and presents its sheet; its own later purchases then wait
  /// behind that sheet, and answering it would complete the other process's purchase a second time.
  func testSharedAccountLaunchDoesNotAdoptAnotherProcesssPurchase() throws {
    guard ProcessInfo.processInfo.environment["STOREFRONT_KNOWN_ISSUES"] == "1" else {
      throw XCTSkip("Known issue (see the test's doc comment); run with STOREFRONT_KNOWN_ISSUES=1.")
    }
    for attempt in 0..<5 {
      let dataDir = try Scratch.directory(self, "shared-account")
      let scripts = (0..<4).map { index in "account jake\n" + script(purchases: 30, seed: UInt64(100 + attempt * 4 + index)) }
      let results = ResultBox(count: scripts.count)
      DispatchQueue.concurrentPerform(iterations: scripts.count) { index in
        results.set(index, try? StorefrontProcess.run(["run", "-", "--json", "--data-dir", dataDir.path], input: Data(scripts[index].utf8)))
      }
      for (index, result) in results.values.enumerated() {
        let sheets = result?.lines.filter { $0.contains("\"sheetPresented\"") } ?? []
        XCTAssertEqual(sheets, [], "attempt \(attempt): process \(index) showed another process's purchase sheet")
      }
    }
  }
}

/// Results written by concurrent workers.
final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [ProcessResult?]
  init(count: Int) { storage = Array(repeating: nil, count: count) }
  func set(_ index: Int, _ value: ProcessResult?) { lock.withLock { storage[index] = value } }
  var values: [ProcessResult?] { lock.withLock { storage } }
}
