import Foundation
import XCTest

/// SIGKILLs `storefront run - --json` at hundreds of points and checks, after each kill, that nothing a
/// run reported was lost, that unfinished transactions come back at the next launch, that nothing was
/// granted twice, that the database is intact and that the commit log agrees with the rows (no
/// commit half written: every row a commit wrote is named by its record, the newest record is at the
/// change counter).
///
/// No sleeping: each kill point is "after the k-th line of stdout" or "after the first n bytes of
/// stdout" (k, n from a seeded generator), so the kill lands right after the event was written.
/// `STOREFRONT_LONG=1` runs many more kill points; `STOREFRONT_CRASH_SEED=N` picks another seed. Data
/// directories live in /dev/shm when it is a tmpfs (a SIGKILL does not drop the page cache, so the
/// test means the same, without the fsync latency); `STOREFRONT_CRASH_ON_DISK=1` uses $TMPDIR.
final class CrashSafetyTests: XCTestCase {
  /// What all runs on one data directory have reported so far; the ledger must agree with it.
  struct Reported {
    /// Every transaction seen in an event, with what must never change about it. (The original id
    /// may change once: a re-download of an owned product points to the first purchase when it completes.)
    var identity: [String: (product: String, account: String)] = [:]
    /// Transactions reported purchased or restored, with that state and original id.
    var completed: [String: (state: String, original: String)] = [:]
    /// Transactions reported finished (`transactionRemoved`).
    var finished: Set<String> = []
    /// Transactions reported refunded (`transactionRevoked`).
    var revoked: Set<String> = []
  }

  struct Figures {
    var killPoints = 0
    var completedRuns = 0
    var runs = 0
    var linesRead = 0
    var redeliveriesChecked = 0
    var launchesChecked = 0
    var transactionsChecked = 0
    var distinctPurchased = 0
    var commitLogsChecked = 0
  }

  func testSIGKILLAtManyPointsLosesNothing() throws {
    let long = ProcessInfo.processInfo.environment["STOREFRONT_LONG"] == "1"
    let seed = ProcessInfo.processInfo.environment["STOREFRONT_CRASH_SEED"].flatMap(UInt64.init) ?? 20_260_101
    // A fresh data directory every few kills keeps the ledger small, so each run is quick.
    let rounds = long ? 60 : 22
    let killsPerRound = long ? 20 : 10
    var random = SeededGenerator(seed: seed)
    var figures = Figures()
    let started = Date()
    for round in 0..<rounds {
      let dataDir = try Scratch.directory(self, "crash", inMemory: ProcessInfo.processInfo.environment["STOREFRONT_CRASH_ON_DISK"] != "1")
      var generator = ScenarioGenerator(seed: random.next())
      var reported = Reported()
      var unfinishedBefore: [String] = []
      var kills = 0
      var attempts = 0
      while kills < killsPerRound && attempts < killsPerRound * 3 {
        attempts += 1
        let context = "seed \(seed) round \(round) run \(attempts)"
        let script = generator.script(steps: 15 + Int.random(in: 0...25, using: &random))
        let byLines = Int.random(in: 0..<4, using: &random) != 0
        let killLine = Int.random(in: 1...45, using: &random)
        let killByte = Int.random(in: 1...30_000, using: &random)
        var seen = 0
        let result = try StorefrontProcess.stream(
          ["run", "-", "--json", "--data-dir", dataDir.path], input: Data(script.utf8),
          killAfterBytes: byLines ? nil : killByte
        ) { _, _ in
          seen += 1
          return byLines && seen >= killLine
        }
        figures.runs += 1
        figures.linesRead += result.lines.count
        if result.signalled {
          XCTAssertEqual(result.status, SIGKILL, "\(context): ended by signal \(result.status)\n\(result.stderr)")
          kills += 1
          figures.killPoints += 1
        } else {
          XCTAssertEqual(result.status, 0, "\(context): exit \(result.status)\n\(result.stderr)\n\(script)")
          figures.completedRuns += 1
        }
        let events = result.lines.compactMap(jsonObject)
        XCTAssertEqual(events.count, result.lines.count, "\(context): a stdout line is not JSON")
        try checkLaunch(events, unfinishedBefore: unfinishedBefore, context: context, figures: &figures)
        record(events, into: &reported, context: context)
        unfinishedBefore = try checkLedger(dataDir, against: reported, context: context, figures: &figures)
        if testRun?.failureCount ?? 0 > 0 { return }
      }
      figures.distinctPurchased += reported.completed.count
      XCTAssertGreaterThanOrEqual(kills, killsPerRound / 2, "round \(round): too few runs were killed; adjust the kill points")
    }
    let seconds = Date().timeIntervalSince(started)
    print(
      """
      Crash safety (seed \(seed)\(long ? ", long" : "")): \(figures.killPoints) kill points, \(figures.completedRuns) runs \
      completed, \(figures.runs) runs, \(figures.linesRead) event lines read, \(figures.launchesChecked) launches \
      checked with \(figures.redeliveriesChecked) redeliveries, \(figures.transactionsChecked) transaction checks, \
      \(figures.distinctPurchased) purchased/restored transactions tracked, \(figures.commitLogsChecked) commit logs checked, in \(String(format: "%.1f", seconds)) s
      """)
    XCTAssertGreaterThanOrEqual(figures.killPoints, long ? 1000 : 200)
  }

  /// The events before the first scenario line are the launch's redelivery: exactly the unfinished
  /// transactions, each once (a prefix of them when the run was killed during the launch).
  private func checkLaunch(_ events: [[String: Any]], unfinishedBefore: [String], context: String, figures: inout Figures) throws {
    var delivered: [String] = []
    var finishedLaunch = false
    for event in events {
      if event["line"] != nil {
        finishedLaunch = true
        break
      }
      if event["event"] as? String == "transactionUpdated", let id = event["queueId"] as? String {
        delivered.append(id)
      }
    }
    XCTAssertEqual(Set(delivered).count, delivered.count, "\(context): a transaction was delivered twice at launch: \(delivered)")
    let expected = Set(unfinishedBefore)
    XCTAssertTrue(Set(delivered).isSubset(of: expected), "\(context): launch delivered \(Set(delivered).subtracting(expected)), which was not unfinished")
    if finishedLaunch {
      XCTAssertEqual(delivered, unfinishedBefore, "\(context): launch must redeliver every unfinished transaction, oldest first")
      figures.launchesChecked += 1
    }
    figures.redeliveriesChecked += delivered.count
  }

  private func record(_ events: [[String: Any]], into reported: inout Reported, context: String) {
    for event in events {
      guard let name = event["event"] as? String, name.hasPrefix("transaction"),
        let transaction = TransactionRecord(json: event)
      else { continue }
      let identity = (transaction.productID, transaction.account)
      if let known = reported.identity[transaction.id] {
        XCTAssertTrue(
          known == identity,
          "\(context): transaction \(transaction.id) was reported as \(identity) after \(known): an id was reused")
      } else {
        reported.identity[transaction.id] = identity
      }
      switch name {
      case "transactionUpdated" where transaction.state == "purchased" || transaction.state == "restored":
        reported.completed[transaction.id] = (transaction.state, transaction.originalID)
      case "transactionRemoved": reported.finished.insert(transaction.id)
      case "transactionRevoked": reported.revoked.insert(transaction.id)
      default: break
      }
    }
  }

  /// Checks the ledger against everything reported; returns the ids of the signed-in account's
  /// unfinished transactions, which the next launch must deliver.
  private func checkLedger(_ dataDir: URL, against reported: Reported, context: String, figures: inout Figures) throws -> [String] {
    let file = dataDir.appendingPathComponent("ledger.sqlite")
    guard FileManager.default.fileExists(atPath: file.path) else {
      XCTAssertTrue(reported.identity.isEmpty, "\(context): transactions were reported but there is no ledger")
      return []
    }
    let answer = try Shell.sqlite(file, "PRAGMA integrity_check; SELECT 'account=' || value FROM kv WHERE key = 'account';")
    let lines = answer.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "ok", "\(context): PRAGMA integrity_check: \(answer)")
    let account = lines.last { $0.hasPrefix("account=") }.map { String($0.dropFirst("account=".count)) } ?? ""
    // The commit log (DECISIONS §41): every commit that landed has its record, none a record without
    // its rows: the newest record is at the change counter, and every row a commit wrote is named by
    // the record at its position.
    let log = try Shell.sqlite(file, """
      SELECT coalesce((SELECT value FROM kv WHERE key = 'change-counter'), '0') || ' ' ||
        coalesce((SELECT max(position) FROM commit_log), (SELECT value FROM kv WHERE key = 'commit-log-floor'), '0');
      SELECT count(*) FROM transactions t
        WHERE t.changed > coalesce((SELECT CAST(value AS INTEGER) FROM kv WHERE key = 'commit-log-floor'), 0)
          AND NOT EXISTS (SELECT 1 FROM commit_log c WHERE c.position = t.changed
            AND instr(CAST(c.entries AS TEXT), '["t",' || t.id || ']') > 0);
      """).split(separator: "\n").map(String.init)
    if let positions = log.first?.split(separator: " "), positions.count == 2 {
      XCTAssertEqual(positions[0], positions[1], "\(context): the change counter and the newest commit record differ")
    }
    XCTAssertEqual(log.last, "0", "\(context): a row was written without its commit record")
    figures.commitLogsChecked += 1
    let ledger = try LedgerView.read(dataDir)
    for (id, identity) in reported.identity {
      figures.transactionsChecked += 1
      guard let stored = ledger.byID[id] else {
        XCTFail("\(context): transaction \(id) (\(identity.product)) was reported but is not in the ledger")
        continue
      }
      XCTAssertTrue(
        (stored.productID, stored.account) == identity,
        "\(context): transaction \(id) in the ledger is \(stored), reported as \(identity)")
      if let completed = reported.completed[id] {
        XCTAssertEqual(stored.state, completed.state, "\(context): transaction \(id) was reported \(completed.state)")
        XCTAssertEqual(stored.originalID, completed.original, "\(context): transaction \(id)'s original id")
      }
      if reported.finished.contains(id) { XCTAssertTrue(stored.finished, "\(context): transaction \(id) was reported finished") }
      if reported.revoked.contains(id) { XCTAssertTrue(stored.revoked, "\(context): transaction \(id) was reported refunded") }
    }
    let doubles = ledger.doubleCharges(nonConsumables: ScenarioGenerator.nonConsumables)
    XCTAssertEqual(doubles, [], "\(context): a non-consumable was charged twice")
    return account.isEmpty ? [] : ledger.transactions.filter { $0.account == account && !$0.finished }.map(\.id)
  }
}
