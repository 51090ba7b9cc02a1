import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontProcessTestSupport

/// Issue 23's "the present costs the present, not the history", on the ledger side: on ledgers of
/// 100 and 100,000 transactions (``LedgerHistory``), in this process the first history page (20
/// rows, both orders) and consumable units; then the real `storefront transactions` and
/// `storefront receipt` processes' wall time and peak RSS (``RSSProbe``). Each 100k figure is
/// reported next to its 100 figure.
enum HistoryBenchmark {
  /// Each measurement's `_100_<unit>`, `_100k_<unit>` and `_100k_vs_100`.
  static let keys: [String] = {
    let measured = [
      ("history_first_page_insertion", "ms"), ("history_first_page_last_modified", "ms"), ("history_consumable_units", "ms"),
      ("history_transactions_wall", "ms"), ("history_transactions_peak_rss", "mb"),
      ("history_transactions_json_wall", "ms"), ("history_transactions_json_peak_rss", "mb"),
      ("history_receipt_wall", "ms"), ("history_receipt_peak_rss", "mb"),
    ]
    return measured.flatMap { key, unit in ["\(key)_100_\(unit)", "\(key)_100k_\(unit)", "\(key)_100k_vs_100"] }
      + rateKeys
  }()
  /// Rows per second at 100,000 transactions: the in-process baselines (every page read whole, and
  /// as summaries) and each process's listing.
  static let rateKeys = [
    "history_page_walk_100k_rows_per_s", "history_summary_walk_100k_rows_per_s",
    "history_transactions_100k_rows_per_s", "history_transactions_json_100k_rows_per_s", "history_receipt_100k_rows_per_s",
  ]
  static let sizes = [100, 100_000]

  struct Plan {
    /// In-process reads per size (medians); the two sizes alternate.
    var reads: Int
    /// Runs of each process per size.
    var processRuns: Int

    static let quick = Plan(reads: 51, processRuns: 1)
    static let full = Plan(reads: 401, processRuns: 3)
  }

  static func run(binary: String, benchPath: String, catalog: Catalog, plan: Plan, scratch: URL, into report: Report) throws {
    let home = scratch.appendingPathComponent("history")
    defer { try? FileManager.default.removeItem(at: home) }
    let environment = StorefrontBinary.isolatedEnvironment(home: home)
    let authority = try BenchStore.authority(in: home)
    // The sandbox signer's JWS bytes without the ECDSA step: paging and listing cost the same.
    let signing = try BenchSigning.sandboxShaped(authority)
    var directories: [Int: URL] = [:]
    for count in sizes {
      let directory = home.appendingPathComponent("data-\(count)")
      let summary = try writeLedger(count: count, in: directory, catalog: catalog, signing: signing)
      directories[count] = directory
      report.extra("history_\(name(count))_ledger_bytes", LedgerFiles.bytes(in: directory))
      report.extra("history_\(name(count))_populate_s", summary.seconds)
    }

    // In-process: one store per size, opened once (as serve holds its connection).
    var stores: [Int: SQLiteLedgerStore] = [:]
    for (count, directory) in directories { stores[count] = try SQLiteLedgerStore(directory: directory, options: .init(readOnly: true)) }
    defer { stores.values.forEach { $0.close() } }
    let reads: [(key: String, read: (SQLiteLedgerStore) throws -> Int)] = [
      ("history_first_page_insertion", { store in
        try store.historyPage(account: LedgerHistory.account, order: .insertion, after: nil, limit: 20).rows.count
      }),
      ("history_first_page_last_modified", { store in
        try store.historyPage(account: LedgerHistory.account, order: .lastModified, after: nil, limit: 20).rows.count
      }),
      ("history_consumable_units", { store in try store.consumableUnits(account: LedgerHistory.account).count }),
    ]
    for (key, read) in reads {
      var samples: [Int: [Double]] = [:]
      for repetition in 0...plan.reads {
        for count in repetition % 2 == 0 ? sizes : sizes.reversed() {
          guard let store = stores[count] else { continue }
          var rows = 0
          let seconds = try Stopwatch.seconds { rows = try read(store) }
          guard rows > 0 else { throw BenchError.failed("\(key) read nothing from the \(count)-transaction ledger") }
          if repetition > 0 { samples[count, default: []].append(seconds * 1000) }  // repetition 0 warms up
        }
      }
      try compare(key, samples, unit: "ms", into: report)
    }
    report.note(
      "history_first_page_insertion_100k_vs_100",
      "In-process, SQLiteLedgerStore opened read-only once per ledger (LedgerHistory: one tester; 2 consumables : 1 non-consumable : 1 every-1m subscription transaction; sandbox-shaped JWS): historyPage(account: tester, limit: 20) in insertion and lastModified order, and consumableUnits(account: tester); \(plan.reads) reads per size alternating, the first dropped; medians.")

    // The baselines of the listings' rows/s: the whole 100k history read page by page (256 rows,
    // as `receipt` and `transactions --json` read it) and as summaries (1,024, as the table).
    if let store = stores[100_000] {
      for (key, walk) in [
        ("history_page_walk_100k_rows_per_s", { () throws -> Int in
          var rows = 0
          var cursor: HistoryCursor?
          repeat {
            let page = try store.historyPage(account: LedgerHistory.account, order: .insertion, after: cursor, limit: 256)
            rows += page.rows.count
            cursor = page.next
          } while cursor != nil
          return rows
        }),
        ("history_summary_walk_100k_rows_per_s", { () throws -> Int in
          var rows = 0
          var cursor: HistoryCursor?
          repeat {
            let page = try store.historySummaryPage(account: LedgerHistory.account, after: cursor, limit: 1024, expiringOnly: false)
            rows += page.rows.count
            cursor = page.next
          } while cursor != nil
          return rows
        }),
      ] {
        var rates: [Double] = []
        for _ in 0..<plan.processRuns {
          var rows = 0
          let seconds = try Stopwatch.seconds { rows = try walk() }
          guard rows == 100_000 else { throw BenchError.failed("\(key) walked \(rows) rows, not 100,000") }
          rates.append(Double(rows) / seconds)
        }
        let sample = Sample(values: rates, unit: "rows/s")
        report.record(key, sample)
        report.set(key, sample.median)
      }
    }
    report.note(
      "history_page_walk_100k_rows_per_s",
      "In-process baselines for the processes' rows/s: the 100k ledger's whole history walked with historyPage (insertion order, 256 rows a page, every field decoded) and with historySummaryPage (1,024 a page, the ten fields a listing shows); \(plan.processRuns) walks each, medians. The processes' rows/s are 100,000 / their median wall time (which includes the process's start and its ledger load).")

    // The real processes, each under the RSS probe; stdout is read whole by this process.
    let commands: [(key: String, arguments: [String], check: (ProcessResult, Int) -> Bool)] = [
      ("history_transactions", ["transactions"], { result, count in
        result.stdoutData.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } == count + 2
      }),
      ("history_transactions_json", ["transactions", "--json"], { result, count in
        result.stdoutData.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } == count
      }),
      ("history_receipt", ["receipt"], { result, _ in result.stdoutData.count > 100 }),
    ]
    for (key, arguments, check) in commands {
      var wall: [Int: [Double]] = [:]
      var rss: [Int: [Double]] = [:]
      for repetition in 0..<plan.processRuns {
        for count in repetition % 2 == 0 ? sizes : sizes.reversed() {
          guard let directory = directories[count] else { continue }
          let file = home.appendingPathComponent("rss-\(key)-\(count)").path
          var result: ProcessResult?
          let seconds = try Stopwatch.seconds {
            result = try ChildProcess.run(
              benchPath, [RSSProbe.flag, file, binary] + arguments + ["--data-dir", directory.path],
              environment: environment, timeout: 600)
          }
          guard let result, result.status == 0, check(result, count) else {
            throw BenchError.failed("storefront \(arguments.joined(separator: " ")) on \(count) transactions: \(result?.summary ?? "no result")")
          }
          wall[count, default: []].append(seconds * 1000)
          rss[count, default: []].append(try RSSProbe.read(file))
        }
      }
      try compare("\(key)_wall", wall, unit: "ms", into: report)
      if let large = wall[100_000], !large.isEmpty {
        report.set("\(key)_100k_rows_per_s", 100_000 / (Sample(values: large, unit: "ms").median / 1000))
      }
      try compare(key + "_peak_rss", rss, unit: "MB", into: report)
    }
    report.note(
      "history_transactions_peak_rss_100k_mb",
      "`storefront transactions --data-dir D` (the table, 100,002 lines at 100k), `storefront transactions --json` and `storefront receipt --data-dir D` (base64 on stdout) of the release binary, each spawned by `storefront-bench --measure-rss` (ru_maxrss by wait4) with stdout on a pipe this process reads; wall time includes the probe's spawn; \(plan.processRuns) runs per size, alternating; medians.")
  }

  /// The benchmark's ledger of `count` transactions in data directory `directory`.
  static func writeLedger(count: Int, in directory: URL, catalog: Catalog, signing: BenchSigning) throws -> LedgerHistory.Summary {
    let ledger = try SQLiteLedgerStore(directory: directory)
    defer { ledger.close() }
    return try LedgerHistory.write(count: count, to: ledger, catalog: catalog, signing: signing, start: StoreStates.start)
  }

  static let flag = "--write-history"

  /// `storefront-bench --write-history HOME COUNT`: the suite's home (its CA in `HOME/ca`) and
  /// ledger (`HOME/data-COUNT`), to profile `HOME=HOME storefront transactions --data-dir
  /// HOME/data-COUNT` (or `receipt`) by hand.
  static func main(_ arguments: [String]) -> Int32 {
    guard arguments.count == 2, let count = Int(arguments[1]) else { return 64 }
    let home = URL(fileURLWithPath: arguments[0], isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
      let catalog = try CatalogDecoder().decode(try CatalogGenerator.data(products: 10_000), path: "generated")
      let signing = try BenchSigning.sandboxShaped(try BenchStore.authority(in: home))
      _ = try writeLedger(count: count, in: home.appendingPathComponent("data-\(count)"), catalog: catalog, signing: signing)
      return 0
    } catch {
      FileHandle.standardError.write(Data("write-history: \(error)\n".utf8))
      return 1
    }
  }

  private static func name(_ count: Int) -> String { count == 100_000 ? "100k" : String(count) }

  /// `key_100_<unit>`, `key_100k_<unit>` (medians) and `key_100k_vs_100`.
  private static func compare(_ key: String, _ samples: [Int: [Double]], unit: String, into report: Report) throws {
    guard let small = samples[100], let large = samples[100_000], !small.isEmpty, !large.isEmpty else {
      throw BenchError.failed("\(key): no samples")
    }
    let smallSample = Sample(values: small, unit: unit)
    let largeSample = Sample(values: large, unit: unit)
    let suffix = unit.lowercased()
    report.record("\(key)_100", smallSample)
    report.record("\(key)_100k", largeSample)
    report.set("\(key)_100_\(suffix)", smallSample.median)
    report.set("\(key)_100k_\(suffix)", largeSample.median)
    report.set("\(key)_100k_vs_100", largeSample.median / smallSample.median)
  }
}
