import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontProcessTestSupport
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
  /// it redelivers only its own unfinished transactions. (One shared account is covered by
  /// `testSharedAccountLaunchDoesNotAdoptAnotherProcesssPurchase`.)
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
        XCTAssertEqual(result.status, 0, "\(processes) processes: process \(index) exited \(result.status): \(result.stderr)")
        XCTAssertFalse(result.stderr.contains("locked"), "\(processes) processes: process \(index): \(result.stderr)")
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

  /// Four processes signed in as the same account. A process that launches while another has a
  /// purchase `purchasing` (committed, sheet not yet answered) must leave it to that live process:
  /// no sheet of another process's purchase is ever presented (its own purchases never wait behind
  /// one, and nothing is completed twice).
  func testSharedAccountLaunchDoesNotAdoptAnotherProcesssPurchase() throws {
    for attempt in 0..<5 {
      let dataDir = try Scratch.directory(self, "shared-account")
      let scripts = (0..<4).map { index in "account jake\n" + script(purchases: 30, seed: UInt64(100 + attempt * 4 + index)) }
      let results = ResultBox(count: scripts.count)
      DispatchQueue.concurrentPerform(iterations: scripts.count) { index in
        results.set(index, try? StorefrontProcess.run(["run", "-", "--json", "--data-dir", dataDir.path], input: Data(scripts[index].utf8)))
      }
      for (index, result) in results.values.enumerated() {
        XCTAssertEqual(result?.status, 0, "attempt \(attempt): process \(index): \(result?.stderr ?? "could not be started")")
        let sheets = result?.lines.filter { $0.contains("\"sheetPresented\"") } ?? []
        XCTAssertEqual(sheets, [], "attempt \(attempt): process \(index) showed another process's purchase sheet")
      }
    }
  }

  /// The same rule without relying on timing: a purchase whose owner is a live process (this test
  /// runner's session) is left alone by a launching storefront; once its owner is dead (the same pid
  /// with another start time, i.e. a reused pid), the next launch takes it over and shows its sheet,
  /// and when that storefront exits in turn, the one after takes it over again and completes it once.
  func testLaunchTakesOverADeadProcesssPurchaseButNotALiveOnes() throws {
    let dataDir = try Scratch.directory(self, "owner")
    let shopping = ScenarioGenerator.prefix + "shopping"
    func run(_ script: String) throws -> ProcessResult {
      let result = try StorefrontProcess.run(
        ["run", "-", "--json", "--data-dir", dataDir.path, "--account", "jake"], input: Data(script.utf8))
      XCTAssertEqual(result.status, 0, result.stderr)
      return result
    }
    // A storefront leaves its sheet up and exits.
    let left = try run("set dialogs on\nbuy \(shopping)\n")
    let id = try XCTUnwrap(Self.sheets(in: left).first, left.stdout)
    let abandoned = try XCTUnwrap(Self.stored(id, in: dataDir))
    XCTAssertEqual(abandoned.state, .purchasing)
    XCTAssertNotNil(abandoned.ownerSession)

    let live = try Self.runnerSession()
    try Self.setOwner(of: id, to: live, in: dataDir)
    let bystander = try run("set dialogs off\nbuy \(coins)\nfinish last\n")
    XCTAssertEqual(Self.sheets(in: bystander), [], bystander.stdout)
    XCTAssertFalse(bystander.lines.contains { $0.contains("\"transactionId\":\"\(id)\"") }, "delivered a live process's purchase:\n\(bystander.stdout)")
    XCTAssertTrue(bystander.lines.contains { $0.contains("\"productId\":\"\(coins)\"") && $0.contains("\"state\":\"purchased\"") })
    XCTAssertEqual(try Self.stored(id, in: dataDir)?.ownerSession, live)
    XCTAssertEqual(try Self.stored(id, in: dataDir)?.state, .purchasing)

    let dead = try Self.runnerSession(startTimeOffset: 1)
    try Self.setOwner(of: id, to: dead, in: dataDir)
    let recovering = try run("")
    XCTAssertEqual(Self.sheets(in: recovering), [id], recovering.stdout)
    let owner = try XCTUnwrap(Self.stored(id, in: dataDir)?.ownerSession)
    XCTAssertNotEqual(owner, dead)
    XCTAssertNotEqual(owner, live)

    // That storefront exited with the sheet up: the next one takes it over and answers it.
    let answering = try run("confirm\nfinish last\n")
    XCTAssertEqual(Self.sheets(in: answering), [id], answering.stdout)
    let bought = try XCTUnwrap(Self.stored(id, in: dataDir))
    XCTAssertEqual(bought.state, .purchased)
    XCTAssertTrue(bought.isFinished)
    XCTAssertNil(bought.ownerSession)
    let shoppingPurchases = try SQLiteLedgerStore(directory: dataDir).load().transactions.filter {
      $0.productID.rawValue == shopping && $0.state == .purchased
    }
    XCTAssertEqual(shoppingPurchases.map(\.id), [id], "bought once")
  }

  /// Transaction ids of the `sheetPresented` events in `result`.
  private static func sheets(in result: ProcessResult) -> [PaymentTransaction.ID] {
    result.lines.compactMap { line -> PaymentTransaction.ID? in
      guard let event = jsonObject(line), event["event"] as? String == "sheetPresented",
        let id = event["transactionId"] as? String
      else { return nil }
      return PaymentTransaction.ID(id)
    }
  }

  private static func stored(_ id: PaymentTransaction.ID, in dataDir: URL) throws -> PaymentTransaction? {
    try SQLiteLedgerStore(directory: dataDir).load().transactions.first { $0.id == id }
  }

  private static func setOwner(of id: PaymentTransaction.ID, to session: String, in dataDir: URL) throws {
    let ledger = try SQLiteLedgerStore(directory: dataDir)
    var transaction = try XCTUnwrap(ledger.load().transactions.first { $0.id == id })
    transaction.ownerSession = session
    try ledger.commit([.putTransaction(transaction)])
  }

  /// This test runner's session id in the storefront's format, `pid:start time@boot id` (start time:
  /// field 22 of /proc/self/stat, counted after the command name's closing parenthesis). With an
  /// offset, the id of a process that reused this pid, i.e. a dead session.
  private static func runnerSession(startTimeOffset: UInt64 = 0) throws -> String {
    let stat = try String(contentsOfFile: "/proc/self/stat", encoding: .utf8)
    let close = try XCTUnwrap(stat.lastIndex(of: ")"))
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    let start = try XCTUnwrap(UInt64(fields[19]))
    let boot = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return "\(ProcessInfo.processInfo.processIdentifier):\(start + startTimeOffset)@\(boot)"
  }
}

/// Results written by concurrent workers.
final class ResultBox: Sendable {
  private let storage: Locked<[ProcessResult?]>
  init(count: Int) { storage = Locked(Array(repeating: nil, count: count)) }
  func set(_ index: Int, _ value: ProcessResult?) { storage.withLock { $0[index] = value } }
  var values: [ProcessResult?] { storage.withLock { $0 } }
}
