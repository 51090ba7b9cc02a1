import Foundation
import SQLiteLedger
import SandboxSigning
import StoreEngine

/// `launch_100_ms`, `launch_100k_ms` and `launch_100k_vs_100`: opening the store on a data directory
/// whose ledger already holds 100 or 100,000 transactions (``LedgerHistory``, signed by the sandbox
/// CA's OpenSSL signer; with `signed: false`, `--quick`, JWS of the same shape without the ECDSA
/// step, which takes most of the ~90 s the 100,000 real signatures cost), in this process: ``BenchStore/live(in:catalog:authority:wrap:)``
/// (`SQLiteLedgerStore` + `PaymentQueue` init), one observer added, `launch()`. The two sizes
/// alternate in every repetition; the first repetition warms up (page cache, lazy runtime state).
enum LaunchBenchmark {
  static let smallCount = 100
  static let largeCount = 100_000

  static func run(catalog: Catalog, repeats: Int, signed: Bool, scratch: URL, into report: Report) throws {
    let home = scratch.appendingPathComponent("launch")
    defer { try? FileManager.default.removeItem(at: home) }
    let authority = try BenchStore.authority(in: home)
    let signing = signed ? BenchSigning.sandbox(authority) : try BenchSigning.sandboxShaped(authority)

    var directories: [Int: URL] = [:]
    for count in [smallCount, largeCount] {
      let directory = home.appendingPathComponent("data-\(count)")
      let ledger = try SQLiteLedgerStore(directory: directory)
      let summary = try LedgerHistory.write(
        count: count, to: ledger, catalog: catalog, signing: signing, start: StoreStates.start)
      ledger.close()  // the last connection's close checkpoints the WAL, as when the app quits
      if signed, let jws = summary.newest?.signedTransaction {
        // The signatures are real: the sandbox CA's root verifies them.
        _ = try authority.verifier(bundleID: BenchStore.bundleID, now: { Date() }).verify(jws)
      }
      directories[count] = directory
      let name = count == largeCount ? "100k" : String(count)
      report.extra("launch_\(name)_ledger_bytes", LedgerFiles.bytes(in: directory))
      report.extra("launch_\(name)_populate_s", summary.seconds)
      if count == largeCount { describe(summary, into: report) }
    }

    var small: [Double] = []
    var large: [Timing] = []
    for repetition in 0...repeats {
      // The 100-transaction launch takes milliseconds: several per repetition steady its median.
      let smallRuns = Array(repeating: smallCount, count: smallPerRepetition)
      let order = repetition % 2 == 0 ? smallRuns + [largeCount] : [largeCount] + smallRuns
      for count in order {
        guard let directory = directories[count] else { continue }
        let timing = try launch(directory, catalog: catalog, authority: authority)
        guard repetition > 0 else { continue }  // repetition 0 warms up
        if count == largeCount { large.append(timing) } else { small.append(timing.total * 1000) }
      }
    }
    // The StoreKit library's queries on the same two ledgers (issue 35).
    if let smallDirectory = directories[smallCount], let largeDirectory = directories[largeCount] {
      let smallQueries = try LibraryQueriesBenchmark.measure(smallDirectory, repeats: max(3, repeats))
      let largeQueries = try LibraryQueriesBenchmark.measure(largeDirectory, repeats: max(3, repeats))
      LibraryQueriesBenchmark.record(small: smallQueries, large: largeQueries, into: report)
    }
    let smallSample = Sample(values: small, unit: "ms")
    let largeSample = Sample(values: large.map { $0.total * 1000 }, unit: "ms")
    report.record("launch_100", smallSample)
    report.record("launch_100k", largeSample)
    report.record("launch_100k_ledger_open", Sample(values: large.map { $0.ledgerOpen * 1000 }, unit: "ms"))
    report.record("launch_100k_queue_init", Sample(values: large.map { $0.queueInit * 1000 }, unit: "ms"))
    report.record("launch_100k_launch_call", Sample(values: large.map { $0.launchCall * 1000 }, unit: "ms"))
    report.set("launch_100_ms", smallSample.median)
    report.set("launch_100k_ms", largeSample.median)
    report.set("launch_100k_vs_100", largeSample.median / smallSample.median)
    let jws =
      signed
      ? "each JWS signed by the sandbox CA's ES256 signer (x5c chain of three certificates)"
      : "--quick: each JWS is the sandbox signer's header (x5c chain of three certificates) and the real payload with a zero signature, not signed (same bytes as signed; set-up ~5× faster)"
    report.note(
      "launch_100k_vs_100",
      "Launch = SQLiteLedgerStore(directory:) + PaymentQueue init + one observer + launch(), in-process, on a warm page cache; the sandbox CA is opened once beforehand, not timed. Ledgers written by LedgerHistory (one tester; 2 consumables : 1 non-consumable (re-downloads after the first 10) : 1 every-1m subscription transaction; all finished but the newest \(LedgerHistory.unfinishedCount)); \(jws); WAL checkpointed. Per repetition \(smallPerRepetition) launches of 100 and one of 100,000, alternating which goes first; repetition 0 is dropped. launch_100k_* samples split the 100k launch: SQLiteLedgerStore init (it runs PRAGMA quick_check), PaymentQueue init (loads the ledger), launch().")
  }

  static let smallPerRepetition = 5

  /// One launch's time (seconds), whole and in parts.
  struct Timing {
    var total: Double
    var ledgerOpen: Double
    var queueInit: Double
    var launchCall: Double
  }

  /// Opens the store on `directory` and launches it; checks that launch redelivered exactly the
  /// unfinished transactions.
  private static func launch(_ directory: URL, catalog: Catalog, authority: SandboxCertificateAuthority) throws -> Timing {
    let observer = CountingObserver()
    var opened: BenchStore.Live?
    defer { opened?.ledger.close() }
    var launchCall = 0.0
    let total = try Stopwatch.seconds {
      let store = try BenchStore.live(in: directory, catalog: catalog, authority: authority)
      opened = store
      store.queue.add(observer)
      launchCall = try Stopwatch.seconds { try store.queue.launch() }
    }
    guard let store = opened, observer.updated == LedgerHistory.unfinishedCount,
      store.queue.currentAccount == LedgerHistory.account
    else {
      throw BenchError.failed(
        "launch on \(directory.lastPathComponent) redelivered \(observer.updated) transactions to '\(opened?.queue.currentAccount ?? "nobody")', not \(LedgerHistory.unfinishedCount) to '\(LedgerHistory.account)'")
    }
    return Timing(
      total: total, ledgerOpen: store.ledgerOpenSeconds, queueInit: total - store.ledgerOpenSeconds - launchCall,
      launchCall: launchCall)
  }

  private static func describe(_ summary: LedgerHistory.Summary, into report: Report) {
    report.extra(
      "launch_100k_mix",
      "\(summary.consumables) consumables, \(summary.nonConsumablePurchases) non-consumable purchases, \(summary.redownloads) re-downloads, \(summary.subscriptionPurchases) subscription purchases, \(summary.renewals) renewals; \(summary.unfinished) unfinished; \(summary.commits) commits")
    report.extra("launch_signed_transaction_bytes_avg", Double(summary.signedTransactionBytes) / Double(max(1, summary.transactions)))
    report.extra("launch_signed_renewal_info_bytes_avg", Double(summary.signedRenewalInfoBytes) / Double(max(1, summary.signedRenewalInfos)))
  }
}
