import Foundation
import SQLiteLedger
import StoreEngine

/// `advance_day_every_2s_s` and `ledger_bytes_per_renewal`: on a fresh live-like store
/// (``BenchStore/live(in:catalog:authority:wrap:)``: SQLite ledger, the sandbox CA's OpenSSL
/// signer), the tester buys one auto-renewable subscription with auto-renew on at time rate
/// `every-2s` (dialogs off) and finishes it; then `advance(by:)` one day of virtual time delivers
/// 43,200 renewals, which the app hears of (one counting observer) but does not finish.
///
/// The ledger's size (database file + WAL, each time right after a `wal_checkpoint(TRUNCATE)`) is
/// taken before and after the advance; its growth over the renewals is `ledger_bytes_per_renewal`.
enum AdvanceBenchmark {
  static let timeRate = 1005  // every-2s
  static let period: TimeInterval = 2
  static let day: TimeInterval = 86_400
  /// The figures against the day's floor (``AdvanceFloor``), in `Report.keys`.
  static let floorKeys = ["advance_day_every_2s_floor_s", "advance_day_every_2s_vs_floor"]

  struct Outcome {
    var seconds: Double
    /// User + system CPU seconds of the same span: what other processes' load inflates least.
    var cpuSeconds: Double
    var renewals: Int
    var ledgerGrowth: Int
    var writes: Int
    var signedBytes: Int
    /// The same span's floor, measured right after it on its ledger (not for the finishing app).
    var floor: AdvanceFloor.Outcome?
  }

  /// `interval` is a day, or a shorter span in `--quick` mode (then the day's key stays null).
  static func run(catalog: Catalog, interval: TimeInterval, repeats: Int, scratch: URL, into report: Report) throws {
    var outcomes: [Outcome] = []
    var finishing: [Outcome] = []
    // Alternated, so drift in the disk's flush time falls on both alike.
    for repetition in 0..<repeats {
      outcomes.append(try advance(interval, catalog: catalog, in: scratch.appendingPathComponent("advance-\(repetition)"), floor: true))
      finishing.append(try advance(
        interval, catalog: catalog, in: scratch.appendingPathComponent("advance-finishing-\(repetition)"), finishing: true))
    }
    recordFinishing(finishing, against: outcomes, interval: interval, repeats: repeats, into: report)
    recordFloor(outcomes, interval: interval, into: report)
    let renewals = outcomes.first?.renewals ?? 0
    let seconds = Sample(values: outcomes.map(\.seconds), unit: "s")
    let bytes = Sample(values: outcomes.map { Double($0.ledgerGrowth) / Double($0.renewals) }, unit: "B/renewal")
    let name = interval == day ? "day" : "\(Format.number(interval / 3600, digits: 2))h"
    report.record("advance_\(name)_every_2s", seconds)
    report.record("advance_\(name)_ledger_bytes_per_renewal", bytes)
    report.set("ledger_bytes_per_renewal", bytes.median)
    report.extra("advance_renewals", renewals)
    report.extra("advance_renewals_per_s", Double(renewals) / seconds.median)
    report.extra("advance_ledger_writes_per_renewal", Double(outcomes.first?.writes ?? 0) / Double(max(1, renewals)))
    report.extra("advance_signed_bytes_per_renewal", Double(outcomes.first?.signedBytes ?? 0) / Double(max(1, renewals)))
    let how =
      "One every-2s subscription (auto-renew on) on a fresh SQLite ledger with the sandbox CA's ES256 signer; advance(by: \(Int(interval))) = \(renewals) renewals, delivered to one counting observer, not finished; ledger growth = database + WAL after wal_checkpoint(TRUNCATE), after minus before the advance. n=\(repeats), each on a fresh data directory."
    if interval == day {
      report.set("advance_day_every_2s_s", seconds.median)
      report.note("advance_day_every_2s_s", how)
    } else {
      report.note(
        "advance_day_every_2s_s",
        "--quick advances \(Format.number(interval / 3600, digits: 2)) h (\(renewals) renewals), not a day, so this stays null: \(Format.number(seconds.median, digits: 2)) s for that span (×\(Format.number(day / interval, digits: 0)) would be \(Format.number(seconds.median * day / interval, digits: 1)) s). Run without --quick for the figure. \(how)")
    }
    report.note("ledger_bytes_per_renewal", "From advance_\(name)_every_2s (\(renewals) renewals). \(how)")
  }

  /// The same day with an app that finishes each renewal as it hears of it (`app finishes at-once`):
  /// the finishes answering the advance's one callback batch commit together, as the scenario
  /// runner and the TUI carry them out.
  private static func recordFinishing(
    _ finishing: [Outcome], against plain: [Outcome], interval: TimeInterval, repeats: Int, into report: Report
  ) {
    let seconds = Sample(values: finishing.map(\.seconds), unit: "s")
    let plainSeconds = Sample(values: plain.map(\.seconds), unit: "s")
    let name = interval == day ? "day" : "\(Format.number(interval / 3600, digits: 2))h"
    report.record("advance_\(name)_every_2s_finishing", seconds)
    let ratio = seconds.median / max(plainSeconds.median, 1e-9)
    report.set("advance_finishing_vs_not", ratio)
    let cpu = Sample(values: finishing.map(\.cpuSeconds), unit: "s").median
    let plainCPU = Sample(values: plain.map(\.cpuSeconds), unit: "s").median
    report.extra("advance_\(name)_every_2s_cpu_s", plainCPU)
    report.extra("advance_\(name)_every_2s_finishing_cpu_s", cpu)
    report.extra("advance_finishing_vs_not_cpu", cpu / max(plainCPU, 1e-9))
    let how =
      "As advance_day_every_2s_s, but the app finishes every renewal in its updatedTransactions handler (app finishes at-once): advance(by:) then finishAll of the callback's batch, one commit, timed together; against the non-finishing advance of the same run (alternated, n=\(repeats) each)."
    report.note("advance_finishing_vs_not", how)
    if interval == day {
      report.set("advance_day_every_2s_finishing_s", seconds.median)
      report.note("advance_day_every_2s_finishing_s", how)
    } else {
      report.note("advance_day_every_2s_finishing_s", "--quick advances \(name), not a day, so this stays null: \(Format.number(seconds.median, digits: 2)) s for that span. \(how)")
    }
  }

  /// The advance against its floor: ``AdvanceFloor`` on each non-finishing advance's own ledger.
  private static func recordFloor(_ outcomes: [Outcome], interval: TimeInterval, into report: Report) {
    let floors = outcomes.compactMap(\.floor)
    guard !floors.isEmpty else { return }
    let name = interval == day ? "day" : "\(Format.number(interval / 3600, digits: 2))h"
    let seconds = Sample(values: floors.map(\.seconds), unit: "s")
    let advance = Sample(values: outcomes.map(\.seconds), unit: "s").median
    report.record("advance_\(name)_every_2s_floor", seconds)
    report.record("advance_\(name)_every_2s_floor_sign", Sample(values: floors.map(\.signSeconds), unit: "s"))
    report.record("advance_\(name)_every_2s_floor_sqlite", Sample(values: floors.map(\.sqliteSeconds), unit: "s"))
    report.set("advance_day_every_2s_vs_floor", advance / max(seconds.median, 1e-9))
    let cpu = Sample(values: floors.map(\.cpuSeconds), unit: "s").median
    let advanceCPU = Sample(values: outcomes.map(\.cpuSeconds), unit: "s").median
    report.extra("advance_\(name)_every_2s_floor_cpu_s", cpu)
    report.extra("advance_\(name)_every_2s_vs_floor_cpu", advanceCPU / max(cpu, 1e-9))
    report.extra("advance_floor_signatures", floors[0].signatures)
    report.extra("advance_floor_rows", floors[0].rows)
    report.extra("advance_floor_row_bytes", floors[0].bytes)
    let how =
      "The advance's irreducible part, timed like it right after it (wall; CPU in advance_\(name)_every_2s_floor_cpu_s): \(floors[0].signatures) ES256 signatures through the same ES256Signer (sandbox CA leaf key, x5c header) of the advance's own first transaction and renewal-info payloads, then the \(floors[0].rows) rows (\(floors[0].bytes) B) the advance left in its ledger, read back and written by raw SQLite (prepared INSERT OR REPLACE per table, WAL, synchronous=FULL) into a copy of the ledger from before the advance, in one transaction as the engine commits the advance; n=\(floors.count)."
    report.note("advance_day_every_2s_vs_floor", (interval == day ? "" : "--quick: over \(name), not a day. ") + how)
    if interval == day {
      report.set("advance_day_every_2s_floor_s", seconds.median)
      report.note("advance_day_every_2s_floor_s", how)
    } else {
      report.note(
        "advance_day_every_2s_floor_s",
        "--quick advances \(name), not a day, so this stays null: \(Format.number(seconds.median, digits: 2)) s for that span. \(how)")
    }
  }

  private static func advance(
    _ interval: TimeInterval, catalog: Catalog, in directory: URL, finishing: Bool = false, floor: Bool = false
  ) throws -> Outcome {
    defer { try? FileManager.default.removeItem(at: directory) }
    let subscribed = try Subscribed(catalog: catalog, in: directory)
    defer { subscribed.store.ledger.close() }
    let before = try LedgerFiles.checkpointedBytes(in: directory)
    let copy = floor ? try AdvanceFloor.copyLedger(in: directory) : nil
    let writesBefore = subscribed.writes
    let queue = subscribed.store.queue
    let observer = subscribed.observer
    let cpuBefore = Stopwatch.cpuSeconds()
    let seconds = try Stopwatch.seconds {
      try queue.advance(by: interval)
      if finishing { try queue.perform(.finishAll(observer.unfinished)) }
    }
    let cpuSeconds = Stopwatch.cpuSeconds() - cpuBefore
    if finishing {
      let left = queue.unfinishedTransactions.count
      guard left == 0 else { throw BenchError.failed("the finishing app left \(left) renewals unfinished") }
    }
    let writes = subscribed.writes - writesBefore
    let after = try LedgerFiles.checkpointedBytes(in: directory)

    let renewals = subscribed.observer.renewals
    let expected = Int(interval / period)
    guard renewals == expected else {
      throw BenchError.failed("advancing \(Int(interval)) s at every-2s delivered \(renewals) renewals, not \(expected)")
    }
    let floorOutcome = try copy.map {
      try AdvanceFloor.measure(renewals: renewals, first: subscribed.observer.first, directory: directory, copy: $0)
    }
    return Outcome(
      seconds: seconds, cpuSeconds: cpuSeconds, renewals: renewals, ledgerGrowth: after - before, writes: writes,
      signedBytes: subscribed.observer.signedBytes, floor: floorOutcome)
  }

  /// A live-like store in `directory` whose tester has just bought (and finished) one every-2s
  /// subscription with auto-renew on; its ledger writes are counted, its renewals observed.
  struct Subscribed {
    let store: BenchStore.Live
    let counting: CountingLedger
    let observer = RenewalObserver()

    /// Commits and id reservations so far.
    var writes: Int { counting.commits + counting.reservations }

    init(catalog: Catalog, in directory: URL) throws {
      guard let product = catalog.products.first(where: { $0.kind == .autoRenewableSubscription }) else {
        throw BenchError.failed("the catalog has no auto-renewable subscription")
      }
      let authority = try BenchStore.authority(in: directory)
      var counting: CountingLedger?
      store = try BenchStore.live(in: directory, catalog: catalog, authority: authority) { ledger in
        let wrapper = CountingLedger(ledger)
        counting = wrapper
        return wrapper
      }
      guard let counting else { throw BenchError.failed("the store did not take the counting ledger") }
      self.counting = counting
      let queue = store.queue
      try queue.signIn(LedgerHistory.account)
      try queue.set(.dialogs(false))
      try queue.set(.timeRate(timeRate))
      let id = try queue.add(Payment(productID: product.id))
      guard try queue.transaction(id)?.state == .purchased,
        queue.subscriptions().first(where: { $0.originalID == id })?.autoRenew == true
      else {
        throw BenchError.failed("the subscription \(product.id) was not purchased with auto-renew on")
      }
      try queue.finish(id)
      queue.add(observer)
    }
  }

  static let profileFlag = "--profile-advance"

  /// `storefront-bench --profile-advance SECONDS [STEP] [finishing]`: only the every-2s advance (for
  /// `perf` or callgrind), in steps of STEP virtual seconds (default 3600), printing each step's time
  /// and the ledger's size (checkpointed, untimed) to stderr, so a cost that grows with the ledger
  /// shows. With `finishing`, each step's renewals are then finished in one `finishAll`, timed with it;
  /// with `PERF_CTL` naming `perf record --control=fifo:…`'s fifo (and `-D -1`), perf samples only
  /// from the first advance on (with `finishing`, from the first finish on).
  static func profile(_ arguments: [String]) -> Int32 {
    var arguments = arguments
    let finishing = arguments.last == "finishing"
    if finishing { arguments.removeLast() }
    guard (1...2).contains(arguments.count), let total = TimeInterval(arguments[0]), total > 0,
      let step = arguments.count == 2 ? TimeInterval(arguments[1]) : 3_600, step > 0
    else { return 64 }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-bench-advance-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      // The catalog the benchmark uses (the 10k one every suite shares).
      let catalog = try CatalogDecoder().decode(CatalogGenerator.data(products: 10_000), path: "Bench10000.storekit")
      let subscribed = try Subscribed(catalog: catalog, in: directory)
      defer { subscribed.store.ledger.close() }
      var done: TimeInterval = 0
      while done < total {
        let span = min(step, total - done)
        let renewals = subscribed.observer.renewals
        let queue = subscribed.store.queue
        let observer = subscribed.observer
        var finishSeconds: Double = 0
        var finishCPU: Double = 0
        if !finishing { perfControl("enable") }
        let cpu = Stopwatch.cpuSeconds()
        let seconds = try Stopwatch.seconds {
          try queue.advance(by: span)
          if finishing {
            perfControl("enable")
            let finishStart = Stopwatch.cpuSeconds()
            finishSeconds = try Stopwatch.seconds { try queue.perform(.finishAll(observer.unfinished)) }
            finishCPU = Stopwatch.cpuSeconds() - finishStart
            observer.unfinished = []
          }
        }
        let stepCPU = Stopwatch.cpuSeconds() - cpu
        done += span
        let count = subscribed.observer.renewals - renewals
        FileHandle.standardError.write(Data(
          "advance \(Int(done)) s: \(count) renewals\(finishing ? " (finished in \(Format.number(finishSeconds, digits: 2)) s, CPU \(Format.number(finishCPU, digits: 2)) s)" : "") in \(Format.number(seconds, digits: 2)) s (CPU \(Format.number(stepCPU, digits: 2)) s) (\(Format.number(Double(count) / seconds, digits: 0))/s), ledger \(try LedgerFiles.checkpointedBytes(in: directory)) B after a checkpoint\n".utf8))
      }
      return 0
    } catch {
      FileHandle.standardError.write(Data("profile-advance: \(error)\n".utf8))
      return 1
    }
  }
}

/// Tells `perf record --control=fifo:$PERF_CTL` to `enable` or `disable` sampling; nothing without it.
private func perfControl(_ command: String) {
  guard let fifo = ProcessInfo.processInfo.environment["PERF_CTL"], let handle = FileHandle(forWritingAtPath: fifo) else { return }
  handle.write(Data((command + "\n").utf8))
}

/// Counts the renewals the app hears of and the size of their JWS.
final class RenewalObserver: PaymentTransactionObserver {
  var renewals = 0
  var signedBytes = 0
  /// The renewals heard of, for an app that finishes them.
  var unfinished: [PaymentTransaction.ID] = []
  /// The first renewal heard of: the floor signs its payloads.
  var first: PaymentTransaction?
  func updatedTransactions(_ transactions: [PaymentTransaction]) {
    for transaction in transactions where transaction.reason == .renewal {
      renewals += 1
      if first == nil { first = transaction }
      if !transaction.isFinished { unfinished.append(transaction.id) }
      signedBytes += (transaction.signedTransaction?.utf8.count ?? 0) + (transaction.signedRenewalInfo?.utf8.count ?? 0)
    }
  }
  func removedTransactions(_ transactions: [PaymentTransaction]) {}
  func restoreCompletedTransactionsFinished() {}
  func restoreCompletedTransactionsFailed(with error: StoreKitError) {}
}
