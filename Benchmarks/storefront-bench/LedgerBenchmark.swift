import Foundation
import SQLiteLedger
import StoreEngine

/// `ledger_cycles_per_s` and `ledger_vs_raw_sqlite`: the engine's cycles on `SQLiteLedgerStore` in
/// a temporary directory, vs ``RawSQLiteLoop`` replaying the very commits those cycles made.
///
/// `synchronous=FULL` makes every commit wait for the disk, whose speed drifts (other I/O on the
/// machine), so the two are interleaved finely: each repetition alternates chunks of a few cycles,
/// the engine's chunk first, then the raw replay of that chunk's commits, on two files in the same
/// directory. Encoding the raw loop's rows happens between chunks, untimed.
enum LedgerBenchmark {
  static let chunk = 10

  static func run(catalog: Catalog, cycles: Int, repeats: Int, scratch: URL, into report: Report) throws {
    var ledgerRates: [Double] = []
    var rawRates: [Double] = []
    var commits = 0
    var rows = 0
    var journalMode = ""
    for repetition in 0...repeats {
      let directory = scratch.appendingPathComponent("ledger-\(repetition)")
      let rawDirectory = scratch.appendingPathComponent("raw-\(repetition)")
      defer {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: rawDirectory)
      }
      let store = try SQLiteLedgerStore(directory: directory)
      defer { store.close() }
      let ledger = CountingLedger(store)
      let driver = try CycleDriver(catalog: catalog, ledger: ledger)
      let raw = try RawSQLiteLoop(directory: rawDirectory)
      journalMode = raw.journalMode

      var ledgerSeconds = 0.0
      var rawSeconds = 0.0
      commits = 0
      rows = 0
      var done = 0
      while done < cycles {
        let count = min(chunk, cycles - done)
        ledger.recording = true
        ledgerSeconds += try Stopwatch.seconds {
          for _ in 0..<count { try driver.cycle() }
        }
        ledger.recording = false
        let batches = ledger.recorded.suffix(from: commits)
        commits = ledger.recorded.count
        rows += batches.map(\.count).reduce(0, +)
        let encoded = try RawSQLiteLoop.rows(for: Array(batches))
        rawSeconds += try Stopwatch.seconds { try raw.replay(encoded) }
        done += count
      }
      if repetition > 0 {  // repetition 0 warms up
        ledgerRates.append(Double(cycles) / ledgerSeconds)
        rawRates.append(Double(cycles) / rawSeconds)
      }
    }
    let ledgerSample = Sample(values: ledgerRates, unit: "cycles/s")
    let rawSample = Sample(values: rawRates, unit: "cycles/s")
    let commitsPerCycle = Double(commits) / Double(cycles)
    report.record("ledger_cycles_sqlite", ledgerSample)
    report.record("ledger_raw_sqlite_loop", rawSample)
    report.set("ledger_cycles_per_s", ledgerSample.median)
    report.set("ledger_vs_raw_sqlite", ledgerSample.median / rawSample.median)
    report.extra("ledger_commits_per_cycle", commitsPerCycle)
    report.extra("ledger_rows_per_commit", Double(rows) / Double(max(1, commits)))
    report.note(
      "ledger_vs_raw_sqlite",
      "Raw loop: CSQLite directly on a file whose schema SQLiteLedgerStore created (journal_mode=\(journalMode), synchronous=FULL, foreign_keys=ON), replaying the engine's own \(Format.number(commitsPerCycle, digits: 0)) commits per cycle (BEGIN IMMEDIATE, the ledger's upsert statement, COMMIT), JSON encoded beforehand; the two alternate every \(chunk) cycles; files in \(scratch.deletingLastPathComponent().path).")
  }
}
