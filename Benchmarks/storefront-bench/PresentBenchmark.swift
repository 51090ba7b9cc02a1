import Foundation
import SQLiteLedger
import StoreEngine
import StoreScenario
import StoreTUI

/// Issue 23's "the present costs the present": on ledgers of 100 and 100,000 transactions written by
/// ``LedgerHistory`` (SQLite), what the front ends read of the present, each 100k figure next to its
/// 100 figure in the same run:
/// - `present_entitlements_*_ms`: `PaymentQueue.entitlements()` (working set, records, the ledger's
///   consumable counters);
/// - `present_statuses_*_ms`: `Product.SubscriptionInfo.status` of the newest chain's group
///   (`StoreKit2Queries.statuses(group:of:)`);
/// - `present_history_page_*_ms`: the Transactions pane's first window (`HistoryWindow.read`: the
///   history's count and its first 192 rows), with its parts `present_history_rows_*_ms` and
///   `present_history_count_*_ms`;
/// - `present_tui_peak_rss_*_mb`: the real TUI on a pty: first frame, `2` (the Transactions pane,
///   until it shows the history's count), `q`;
/// - `present_run_peak_rss_*_mb`: the real `storefront run` of a small scenario on the same data directory.
///
/// The in-process figures are also read on a third ledger, `100_same_present`
/// (``LedgerHistory/Layout/samePresent``: 100 transactions holding the 100k ledger's present, 50
/// chains and 10 non-consumables), and `*_100k_vs_100_same_present` is the target's ratio: the
/// history's length alone. `*_100k_vs_100` compares with the plain 100 ledger (one chain), whose
/// present is smaller: the present grows too.
enum PresentBenchmark {
  static let queries = ["entitlements", "statuses", "history_page", "history_rows", "history_count"]
  static let keys =
    queries.flatMap { label in
      [
        "present_\(label)_100_ms", "present_\(label)_100_same_present_ms", "present_\(label)_100k_ms",
        "present_\(label)_100k_vs_100_same_present", "present_\(label)_100k_vs_100",
      ]
    } + ["present_tui_peak_rss_100_mb", "present_tui_peak_rss_100k_mb", "present_run_peak_rss_100_mb", "present_run_peak_rss_100k_mb"]
  static let counts = [100, 100_000]

  /// The ledgers the in-process figures are read on: label, transactions, layout.
  static let ledgers: [(label: String, count: Int, layout: LedgerHistory.Layout)] = [
    ("100", 100, .longUsed), ("100_same_present", 100, .samePresent), ("100k", 100_000, .longUsed),
  ]

  static func name(_ count: Int) -> String { count >= 100_000 ? "100k" : String(count) }

  static func run(catalog: Catalog, catalogPath: String, binary: PtyStorefront?, repeats: Int, scratch: URL, into report: Report) throws {
    let home = scratch.appendingPathComponent("present")
    defer { try? FileManager.default.removeItem(at: home) }
    let authority = try BenchStore.authority(in: home)
    // The JWS's shape and size without the ECDSA step: nothing here verifies a signature.
    let signing = try BenchSigning.sandboxShaped(authority)
    var directories: [String: URL] = [:]
    for ledger in ledgers {
      let directory = home.appendingPathComponent("data-\(ledger.label)")
      let store = try SQLiteLedgerStore(directory: directory)
      _ = try LedgerHistory.write(
        count: ledger.count, to: store, catalog: catalog, signing: signing, start: StoreStates.start, layout: ledger.layout)
      store.close()
      directories[ledger.label] = directory
    }

    // samples[query][ledger label], in ms.
    var samples: [String: [String: [Double]]] = [:]
    var presents: [String: String] = [:]
    var presentRows: [String: String] = [:]
    for ledger in ledgers {
      let count = ledger.count
      guard let directory = directories[ledger.label] else { continue }
      let store = try BenchStore.live(in: directory, catalog: catalog, authority: authority)
      defer { store.ledger.close() }
      let queue = store.queue
      guard let group = queue.subscriptions().last?.groupID else { throw BenchError.failed("the \(ledger.label) ledger has no subscription") }
      // What the present holds: records by status, working-set rows by kind, the group asked for.
      let records = Dictionary(grouping: queue.subscriptions(), by: { "\($0.status)" }).mapValues(\.count).sorted { $0.key < $1.key }
      let rowsByKind = Dictionary(grouping: queue.presentTransactions(), by: { "\($0.productKind)" }).mapValues(\.count)
        .sorted { $0.key < $1.key }
      // Guarded equal: the records and the group; noted: the rows (the 100k's newest chain holds
      // its first period and a renewal, the short one's a first period only).
      presents[ledger.label] = "records \(records), group \(group)"
      presentRows[ledger.label] = "\(rowsByKind)"
      var total = 0
      for repetition in 0...repeats {
        let e = try Stopwatch.seconds { _ = try queue.entitlements() }
        let s = try Stopwatch.seconds { _ = try StoreKit2Queries.statuses(group: group, of: queue) }
        let p = try Stopwatch.seconds {
          total = try HistoryWindow.read(account: queue.currentAccount, around: 0, from: queue.ledger).total
        }
        let r = try Stopwatch.seconds {
          _ = try queue.ledger.historyRows(
            account: LedgerHistory.account, order: .insertion, offset: 0, limit: HistoryWindow.range(around: 0).count)
        }
        let c = try Stopwatch.seconds { _ = try queue.ledger.transactionCount(account: LedgerHistory.account) }
        guard repetition > 0 else { continue }  // repetition 0 warms up
        for (query, seconds) in zip(queries, [e, s, p, r, c]) { samples[query, default: [:]][ledger.label, default: []].append(seconds * 1000) }
      }
      guard total >= count else { throw BenchError.failed("the Transactions pane counted \(total) of \(count) transactions") }
    }
    guard presents["100_same_present"] == presents["100k"] else {
      throw BenchError.failed(
        "the same-present ledger's present differs from the 100k one's: \(presents["100_same_present"] ?? "none") vs \(presents["100k"] ?? "none")")
    }
    for query in queries {
      var medians: [String: Double] = [:]
      for ledger in ledgers {
        let sample = Sample(values: samples[query]?[ledger.label] ?? [], unit: "ms")
        report.record("present_\(query)_\(ledger.label)", sample)
        report.set("present_\(query)_\(ledger.label)_ms", sample.median)
        medians[ledger.label] = sample.median
      }
      let large = medians["100k"] ?? 0
      report.set("present_\(query)_100k_vs_100", large / max(medians["100"] ?? 0, 0.000_001))
      report.set("present_\(query)_100k_vs_100_same_present", large / max(medians["100_same_present"] ?? 0, 0.000_001))
    }
    report.note("present_entitlements_100k_vs_100_same_present", "The present of the 100k and the 100_same_present ledgers (checked equal): \(presents["100k"] ?? ""); working-set rows by kind: 100k \(presentRows["100k"] ?? ""), 100_same_present \(presentRows["100_same_present"] ?? ""), 100 \(presentRows["100"] ?? "")")
    report.note(
      "present_entitlements_100k_vs_100",
      "In-process on SQLite ledgers written by LedgerHistory (100 and 100,000 transactions; JWS of the sandbox signer's shape, unsigned), opened as the live store opens them; \(repeats) repetitions after a warm-up. entitlements: PaymentQueue.entitlements(); statuses: StoreKit2Queries.statuses(group:of:) of the newest chain's group; history_page: HistoryWindow.read (the Transactions pane's count and first \(HistoryWindow.range(around: 0).count) rows), whose parts are history_rows (LedgerStore.historyRows) and history_count (LedgerStore.transactionCount).")

    guard let binary else {
      report.note("present_tui_peak_rss_100k_mb", "no release storefront binary next to storefront-bench: build it with swift build -c release")
      return
    }
    let scenario = home.appendingPathComponent("present.scenario")
    try scenarioText(catalog: catalog).write(to: scenario, atomically: true, encoding: .utf8)
    for count in counts {
      guard let directory = directories[name(count)] else { continue }
      let arguments = ["--data-dir", directory.path, "--catalog", catalogPath]
      report.set("present_tui_peak_rss_\(name(count))_mb", try tuiPeakRSS(binary, arguments))
      report.set(
        "present_run_peak_rss_\(name(count))_mb",
        try binary.peakRSS(["run", scenario.path] + arguments, expecting: "removedTransactions", timeout: 120))
    }
    report.note(
      "present_tui_peak_rss_100k_mb",
      "ru_maxrss (RSSProbe) of the release storefront on a 200x60 pty on each data directory: first frame, 2 (until the Transactions pane shows 'history: N transactions'), q. present_run_peak_rss_*: storefront run of a 4-line scenario (buy a consumable, finish it, two expects) on the same data directory.")
  }

  /// A small scenario on the catalog: a consumable bought and finished, and two checks that read the present.
  static func scenarioText(catalog: Catalog) throws -> String {
    guard let consumable = catalog.products.first(where: { $0.kind == .consumable }) else {
      throw BenchError.failed("the catalog has no consumable")
    }
    return """
      set dialogs off
      buy \(consumable.id.rawValue)
      finish last
      expect unfinished \(LedgerHistory.unfinishedCount)
      """
  }

  /// The TUI's peak RSS: first frame, the Transactions pane, quit.
  private static func tuiPeakRSS(_ binary: PtyStorefront, _ arguments: [String]) throws -> Double {
    let (process, file) = try binary.startMeasuringRSS(arguments)
    defer { process.stop() }
    guard process.read(timeout: 60, until: { $0.firstRange(of: Array("q quit".utf8)) != nil }) != nil else {
      throw BenchError.failed("storefront drew no first frame within 60 s: \(process.outputText.suffix(300))")
    }
    process.send(Array("2".utf8))
    guard process.read(timeout: 60, until: { $0.firstRange(of: Array("· history: ".utf8)) != nil }) != nil else {
      throw BenchError.failed("the Transactions pane showed no count within 60 s: \(process.outputText.suffix(300))")
    }
    process.send(Array("q".utf8))
    guard process.readToEnd(timeout: 30) != nil else {
      throw BenchError.failed("storefront did not exit within 30 s of q: \(process.outputText.suffix(300))")
    }
    let status = try process.waitForExit().status
    guard status == 0 else { throw BenchError.failed("storefront exited \(status) after q: \(process.outputText.suffix(300))") }
    return try RSSProbe.read(file)
  }
}
