import Foundation
import StoreEngine
import StoreKit

/// `attached_*` (issue 25): this process is an app attached to a real storefront TUI on a pty, first
/// on a SQLite data directory, then (`attached_pg_*`) on a shared PostgreSQL ledger of a throwaway
/// cluster (or `$STOREFRONT_BENCH_POSTGRES`). Per purchase: `SKPaymentQueue.add` → the bytes of the
/// sheet ("For <bundle id>") arrive on the pty (the sheet on screen), then Enter typed into the pty →
/// the observer's `purchased` callback on the main queue. Nearest-rank p50/p99 over `purchases`
/// after 5 warm-up ones. Then what waiting costs the app: its CPU over a wait with the sheet up,
/// against the same wait with nothing pending.
enum AttachedBenchmark {
  static let keys = ["", "pg_"].flatMap { ledger in
    [
      "attached_\(ledger)sheet_p50_ms", "attached_\(ledger)sheet_p99_ms", "attached_\(ledger)answer_p50_ms",
      "attached_\(ledger)answer_p99_ms", "attached_\(ledger)waiting_cpu_ms_per_s", "attached_\(ledger)idle_cpu_ms_per_s",
      "attached_\(ledger)tui_idle_cpu_ms_per_s",
    ]
  }
  /// How long the app waits with its sheet on screen (and, as the baseline, with nothing pending).
  static let waitSeconds = 3.0
  static let bundleID = "zqx-attached-bench"
  static let teamKey = String(repeating: "5eed", count: 16)

  @MainActor
  static func run(purchases: Int, scratch: URL, into report: Report) throws {
    guard let pty = PtyStorefront.locate(scratch: scratch.appendingPathComponent("sqlite")) else {
      throw BenchError.failed("no release storefront binary next to the benchmark")
    }
    try measure(prefix: "attached_", ledger: nil, pty: pty, purchases: purchases, into: report)
    let server = try SharedLedgerBenchmark.Server()
    defer { server.stop() }
    // The app leaves the shared ledger before its cluster stops: an app attached to a database that went
    // away spends minutes at exit retrying it (49 attempts), and so did this benchmark, in every CI run.
    defer {
      let detached = ["STOREFRONT_DATA_DIR": scratch.appendingPathComponent("detached").path, "STOREFRONT_BUNDLE_ID": bundleID]
      try? StoreKitEnvironment.shared.replace(with: .processDefault(environment: detached))
    }
    let uri = try server.makeDatabase("attached_bench_\(getpid())")
    guard let shared = PtyStorefront.locate(scratch: scratch.appendingPathComponent("postgresql")) else { return }
    var environment = shared.environment
    environment["STOREFRONT_KEY_ENCRYPTION_KEY"] = teamKey
    let onPostgreSQL = PtyStorefront(path: shared.path, environment: environment, benchPath: shared.benchPath, scratch: shared.scratch)
    try measure(prefix: "attached_pg_", ledger: uri, pty: onPostgreSQL, purchases: purchases, into: report)
  }

  @MainActor
  private static func measure(prefix: String, ledger: String?, pty: PtyStorefront, purchases: Int, into report: Report) throws {
    guard let data = pty.environment["STOREFRONT_DATA_DIR"] else { throw BenchError.failed("no data directory") }
    let tui = try pty.start(["--account", "bench"] + (ledger.map { ["--ledger", $0] } ?? []), columns: 120, rows: 40)
    defer { tui.stop() }
    guard tui.read(timeout: 30, until: { $0.firstRange(of: Array("Restore Purchases".utf8)) != nil }) != nil else {
      throw BenchError.failed("the storefront did not draw its first frame")
    }
    var environment = ProcessInfo.processInfo.environment
    environment["STOREFRONT_DATA_DIR"] = data + "-app"
    environment["STOREFRONT_BUNDLE_ID"] = bundleID
    environment["STOREKIT_CONFIGURATION"] = nil
    environment["STOREFRONT_LEDGER"] = ledger
    environment["STOREFRONT_KEY_ENCRYPTION_KEY"] = ledger == nil ? nil : teamKey
    if ledger == nil { environment["STOREFRONT_DATA_DIR"] = data }
    try StoreKitEnvironment.shared.replace(with: .processDefault(environment: environment))
    let observer = PurchaseCounter()
    SKPaymentQueue.default().add(observer)
    defer { SKPaymentQueue.default().remove(observer) }
    let marker = Array("For \(bundleID)".utf8)
    let payment = SKMutablePayment(product: try LibraryDriver.product("com.jake.sample.ExInAppPurchase.coins100"))

    func purchase(_ index: Int, waiting: (() throws -> Void)? = nil) throws -> (sheet: Double, answer: Double) {
      let mark = tui.output.count
      let before = observer.purchased
      let added = Stopwatch.nanoseconds()
      SKPaymentQueue.default().add(payment)
      guard tui.read(timeout: 10, until: { $0.firstRange(of: marker, from: mark) != nil }) != nil else {
        throw BenchError.failed("\(prefix) purchase \(index): the attached app's sheet did not appear in the storefront within 10 s")
      }
      let shown = Stopwatch.nanoseconds()
      try waiting?()
      let pressed = Stopwatch.nanoseconds()
      tui.send([13])
      let deadline = Date().addingTimeInterval(10)
      while observer.purchased == before {
        guard Date() < deadline else { throw BenchError.failed("\(prefix) purchase \(index): no purchased callback within 10 s of Enter") }
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.001))
      }
      return (Double(shown - added) / 1e6, Double(Stopwatch.nanoseconds() - pressed) / 1e6)
    }

    var sheet: [Double] = []
    var answer: [Double] = []
    for index in 0..<(purchases + 5) {
      let measured = try purchase(index)
      if index >= 5 {
        sheet.append(measured.sheet)
        answer.append(measured.answer)
      }
    }
    // What waiting for an answer costs the app: its CPU over a wait with the sheet up, against the
    // same wait with nothing pending (the attachment's sheet waiter and the process's own threads).
    var tuiIdle = 0.0
    let idle = cpuMillisecondsPerSecond {
      // The storefront's own CPU over the same idle wait (its clock ticks each second; it waits on
      // the ledger watcher in between), from /proc: user + system ticks of the whole process.
      tuiIdle = processCPUMillisecondsPerSecond(tui.pid) { Thread.sleep(forTimeInterval: waitSeconds) }
    }
    var waiting = 0.0
    _ = try purchase(-1) { waiting = cpuMillisecondsPerSecond { Thread.sleep(forTimeInterval: waitSeconds) } }
    report.set(prefix + "waiting_cpu_ms_per_s", waiting)
    report.set(prefix + "idle_cpu_ms_per_s", idle)
    report.set(prefix + "tui_idle_cpu_ms_per_s", tuiIdle)
    report.note(
      prefix + "tui_idle_cpu_ms_per_s",
      "The storefront TUI's CPU (the run times in /proc/PID/task/*/schedstat, all threads) over the same \(Int(waitSeconds)) s idle wait, per second: its one-second clock tick and its ledger watcher (DECISIONS §41). Baseline: \(prefix)idle_cpu_ms_per_s, the attached app over the same wait.")
    report.note(
      prefix + "waiting_cpu_ms_per_s",
      "The app's own CPU (getrusage, all threads) over \(Int(waitSeconds)) s with its purchase sheet up and unanswered, per second; \(prefix)idle_cpu_ms_per_s is the same process over the same wait with nothing pending, just before.")
    report.set(prefix + "sheet_p50_ms", rank(sheet, 0.50))
    report.set(prefix + "sheet_p99_ms", rank(sheet, 0.99))
    report.set(prefix + "answer_p50_ms", rank(answer, 0.50))
    report.set(prefix + "answer_p99_ms", rank(answer, 0.99))
    let how =
      "This process as an app attached (StoreKit library, no SKTestSession) to the release storefront TUI on a 120×40 pty, \(ledger == nil ? "SQLite data directory" : "shared PostgreSQL ledger (loopback TCP, fsync on)"); \(purchases) purchases of 100 Coins after 5 warm-up ones; sheet = SKPaymentQueue.add → the sheet's bytes on the pty; answer = Enter written to the pty → the purchased callback on the main queue (run loop spun in 1 ms steps). Nearest-rank percentiles."
    for key in ["sheet_p50_ms", "sheet_p99_ms", "answer_p50_ms", "answer_p99_ms"] { report.note(prefix + key, how) }
  }

  /// CPU milliseconds per second this process spends over `body`.
  static func cpuMillisecondsPerSecond(_ body: () -> Void) -> Double {
    let cpu = Stopwatch.cpuSeconds()
    let wall = Stopwatch.nanoseconds()
    body()
    return (Stopwatch.cpuSeconds() - cpu) * 1000 / (Double(Stopwatch.nanoseconds() - wall) / 1e9)
  }

  /// CPU milliseconds per second process `pid` spends over `body`: the sum of its threads'
  /// `/proc/PID/task/TID/schedstat` run times (nanoseconds; clock ticks are too coarse for this).
  static func processCPUMillisecondsPerSecond(_ pid: pid_t, _ body: () -> Void) -> Double {
    func nanoseconds() -> Double {
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
      return tasks.reduce(0) { total, task in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
        return total + (Double(text.split(separator: " ").first ?? "") ?? 0)
      }
    }
    let before = nanoseconds()
    let wall = Stopwatch.nanoseconds()
    body()
    return (nanoseconds() - before) / 1e6 / (Double(Stopwatch.nanoseconds() - wall) / 1e9)
  }

  /// The nearest-rank percentile `p` of `values`.
  static func rank(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
  }
}

final class PurchaseCounter: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
  var purchased = 0

  func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
    for transaction in transactions where transaction.transactionState == .purchased {
      purchased += 1
      queue.finishTransaction(transaction)
    }
  }
}
