import Foundation
import StoreEngine
import StoreKit

/// `attached_sheet_*_ms` and `attached_answer_*_ms` (issue 25): this process is an app attached to
/// a real storefront TUI on a pty (same data directory, SQLite). Per purchase: `SKPaymentQueue.add`
/// → the bytes of the sheet ("For <bundle id>") arrive on the pty (the sheet on screen), then Enter
/// typed into the pty → the observer's `purchased` callback on the main queue. Nearest-rank p50/p99
/// over `purchases` after 5 warm-up ones; the TUI's SQLite wake and the app's wait both look every 20 ms.
enum AttachedBenchmark {
  static let keys = [
    "attached_sheet_p50_ms", "attached_sheet_p99_ms", "attached_answer_p50_ms", "attached_answer_p99_ms",
    "attached_waiting_cpu_ms_per_s", "attached_idle_cpu_ms_per_s",
  ]
  /// How long the app waits with its sheet on screen (and, as the baseline, with nothing pending).
  static let waitSeconds = 3.0
  static let bundleID = "zqx-attached-bench"

  @MainActor
  static func run(purchases: Int, scratch: URL, into report: Report) throws {
    guard let pty = PtyStorefront.locate(scratch: scratch), let data = pty.environment["STOREFRONT_DATA_DIR"] else {
      throw BenchError.failed("no release storefront binary next to the benchmark")
    }
    let tui = try pty.start(["--account", "bench"], columns: 120, rows: 40)
    defer { tui.stop() }
    guard tui.read(timeout: 30, until: { $0.firstRange(of: Array("Restore Purchases".utf8)) != nil }) != nil else {
      throw BenchError.failed("the storefront did not draw its first frame")
    }
    var environment = ProcessInfo.processInfo.environment
    environment["STOREFRONT_DATA_DIR"] = data
    environment["STOREFRONT_BUNDLE_ID"] = bundleID
    environment["STOREKIT_CONFIGURATION"] = nil
    try StoreKitEnvironment.shared.replace(with: .processDefault(environment: environment))
    let observer = PurchaseCounter()
    SKPaymentQueue.default().add(observer)
    defer { SKPaymentQueue.default().remove(observer) }
    let marker = Array("For \(bundleID)".utf8)
    var sheet: [Double] = []
    var answer: [Double] = []
    let payment = SKMutablePayment(product: try LibraryDriver.product("com.jake.sample.ExInAppPurchase.coins100"))
    for index in 0..<(purchases + 5) {
      let mark = tui.output.count
      let before = observer.purchased
      let added = Stopwatch.nanoseconds()
      SKPaymentQueue.default().add(payment)
      guard tui.read(timeout: 10, until: { $0.firstRange(of: marker, from: mark) != nil }) != nil else {
        throw BenchError.failed("purchase \(index): the attached app's sheet did not appear in the storefront within 10 s")
      }
      let shown = Stopwatch.nanoseconds()
      tui.send([13])
      let deadline = Date().addingTimeInterval(10)
      while observer.purchased == before {
        guard Date() < deadline else { throw BenchError.failed("purchase \(index): no purchased callback within 10 s of Enter") }
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.001))
      }
      let purchased = Stopwatch.nanoseconds()
      if index >= 5 {
        sheet.append(Double(shown - added) / 1e6)
        answer.append(Double(purchased - shown) / 1e6)
      }
    }
    // What waiting for an answer costs the app: its CPU over a wait with the sheet up, against the
    // same wait with nothing pending (the attachment's sheet waiter and the process's own threads).
    let idle = try cpuMillisecondsPerSecond { }
    let mark = tui.output.count
    let before = observer.purchased
    let waiting = try cpuMillisecondsPerSecond {
      SKPaymentQueue.default().add(payment)
      guard tui.read(timeout: 10, until: { $0.firstRange(of: marker, from: mark) != nil }) != nil else {
        throw BenchError.failed("the waiting purchase's sheet did not appear")
      }
    }
    tui.send([13])
    let deadline = Date().addingTimeInterval(10)
    while observer.purchased == before, Date() < deadline { _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.001)) }
    report.set("attached_waiting_cpu_ms_per_s", waiting)
    report.set("attached_idle_cpu_ms_per_s", idle)
    report.note(
      "attached_waiting_cpu_ms_per_s",
      "The app's own CPU (getrusage, all threads) over \(Int(waitSeconds)) s with its purchase sheet up and unanswered, per second; attached_idle_cpu_ms_per_s is the same process over the same wait with nothing pending, just before.")
    report.set("attached_sheet_p50_ms", rank(sheet, 0.50))
    report.set("attached_sheet_p99_ms", rank(sheet, 0.99))
    report.set("attached_answer_p50_ms", rank(answer, 0.50))
    report.set("attached_answer_p99_ms", rank(answer, 0.99))
    let how =
      "This process as an app attached (StoreKit library, no SKTestSession) to the release storefront TUI on a 120×40 pty, SQLite data directory; \(purchases) purchases of 100 Coins after 5 warm-up ones; sheet = SKPaymentQueue.add → the sheet's bytes on the pty; answer = Enter written to the pty → the purchased callback on the main queue (run loop spun in 1 ms steps). Nearest-rank percentiles."
    for key in keys.prefix(4) { report.note(key, how) }
  }

  /// CPU milliseconds per second this process spends over `start` and then a ``waitSeconds`` sleep of the main thread.
  static func cpuMillisecondsPerSecond(_ start: () throws -> Void) throws -> Double {
    let cpu = Stopwatch.cpuSeconds()
    let wall = Stopwatch.nanoseconds()
    try start()
    Thread.sleep(forTimeInterval: waitSeconds)
    return (Stopwatch.cpuSeconds() - cpu) * 1000 / (Double(Stopwatch.nanoseconds() - wall) / 1e9)
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
