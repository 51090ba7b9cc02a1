import Foundation
import SQLiteLedger
import StoreEngine

/// `ledger_cycles_per_s` and `ledger_vs_raw_sqlite`: the engine's cycles on `SQLiteLedgerStore` in
/// a temporary directory, vs ``RawSQLiteLoop`` replaying the very commits those cycles made. The
/// two alternate which goes first in successive repetitions.
enum LedgerBenchmark {
  static func run(catalog: Catalog, cycles: Int, repeats: Int, scratch: URL, into report: Report) throws {
    var ledgerRates: [Double] = []
    var rawRates: [Double] = []
    var commitsPerCycle = 0.0
    var rowsPerCommit = 0.0
    var journalMode = ""
    for repetition in 0...repeats {
      let directory = scratch.appendingPathComponent("ledger-\(repetition)")
      let rawDirectory = scratch.appendingPathComponent("raw-\(repetition)")
      defer {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: rawDirectory)
      }
      let store = try SQLiteLedgerStore(directory: directory)
      let ledger = CountingLedger(store)
      let driver = try CycleDriver(catalog: catalog, ledger: ledger)
      let raw = try RawSQLiteLoop(directory: rawDirectory)
      journalMode = raw.journalMode

      func runLedger() throws -> Double {
        ledger.recording = true
        let seconds = try Stopwatch.seconds {
          for _ in 0..<cycles { try driver.cycle() }
        }
        ledger.recording = false
        return Double(cycles) / seconds
      }
      func runRaw(_ rows: [[RawSQLiteLoop.Row]]) throws -> Double {
        Double(cycles) / (try Stopwatch.seconds { try raw.replay(rows) })
      }

      // The raw loop needs the engine's commits; on odd repetitions a throw-away engine run on an
      // in-memory ledger supplies them first, so the raw loop can go first on the disk.
      if repetition % 2 == 0 {
        let ledgerRate = try runLedger()
        let rows = try RawSQLiteLoop.rows(for: ledger.recorded)
        let rawRate = try runRaw(rows)
        if repetition > 0 {
          ledgerRates.append(ledgerRate)
          rawRates.append(rawRate)
        }
      } else {
        let recorder = CountingLedger(InMemoryLedgerStore())
        let rehearsal = try CycleDriver(catalog: catalog, ledger: recorder)
        recorder.recording = true
        for _ in 0..<cycles { try rehearsal.cycle() }
        let rows = try RawSQLiteLoop.rows(for: recorder.recorded)
        rawRates.append(try runRaw(rows))
        ledgerRates.append(try runLedger())
      }
      commitsPerCycle = Double(ledger.recorded.count) / Double(cycles)
      rowsPerCommit = Double(ledger.recorded.map(\.count).reduce(0, +)) / Double(max(1, ledger.recorded.count))
      store.close()
    }
    let ledgerSample = Sample(values: ledgerRates, unit: "cycles/s")
    let rawSample = Sample(values: rawRates, unit: "cycles/s")
    report.record("ledger_cycles_sqlite", ledgerSample)
    report.record("ledger_raw_sqlite_loop", rawSample)
    report.set("ledger_cycles_per_s", ledgerSample.median)
    report.set("ledger_vs_raw_sqlite", ledgerSample.median / rawSample.median)
    report.extra("ledger_commits_per_cycle", commitsPerCycle)
    report.extra("ledger_rows_per_commit", rowsPerCommit)
    report.note(
      "ledger_vs_raw_sqlite",
      "Raw loop: CSQLite directly on a file whose schema SQLiteLedgerStore created, journal_mode=\(journalMode), synchronous=FULL, replaying the same \(Format.number(commitsPerCycle, digits: 0)) commits per cycle (BEGIN IMMEDIATE, the ledger's upsert statement, COMMIT) with JSON encoded beforehand; temp dir \(scratch.path).")
  }
}
