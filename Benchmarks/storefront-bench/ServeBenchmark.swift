import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontProcessTestSupport

/// Issue 13's figures for the real `storefront serve` (release build, on loopback):
/// Get Transaction Info requests/s against a minimal libmicrohttpd responder's; its latency while a
/// `storefront run` commits purchases on the same data directory; a history page at 10,000
/// transactions against one at 100; serve's peak RSS with 10,000.
enum ServeBenchmark {
  static let keys = [
    "serve_info_requests_per_s", "serve_info_vs_mhd_ceiling", "serve_info_p50_ms_during_run", "serve_info_p99_ms_during_run",
    "serve_history_page_100_ms", "serve_history_page_10k_ms", "serve_history_10k_vs_100", "serve_peak_rss_mb_10k",
  ]

  struct Plan {
    /// Seconds of each wrk run, and how many of each (serve and the responder alternate).
    var wrkSeconds: Int
    var wrkRepeats: Int
    /// Purchases of the `storefront run` the latency is measured during.
    var runPurchases: Int
    /// Sequential requests timed before the run (the idle baseline).
    var idleRequests: Int
    /// History pages timed per size per repetition, and repetitions (the first is dropped).
    var pageRequests: Int
    var pageRepeats: Int

    static let quick = Plan(wrkSeconds: 1, wrkRepeats: 2, runPurchases: 100, idleRequests: 200, pageRequests: 10, pageRepeats: 3)
    static let full = Plan(wrkSeconds: 5, wrkRepeats: 5, runPurchases: 1_000, idleRequests: 2_000, pageRequests: 50, pageRepeats: 7)
  }

  static let smallHistory = 100
  static let largeHistory = 10_000
  /// The first id of a fresh ledger (`LedgerHistory` and the engine both start there).
  static let firstID = String(BenchStore.liveFirstTransactionID)

  static func run(catalog: Catalog, binary: String, plan: Plan, scratch: URL, into report: Report) throws {
    let home = scratch.appendingPathComponent("serve")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let authority = try BenchStore.authority(in: home)
    // serve never checks a signature, so JWS of the real shape without the ECDSA step are the same bytes to it.
    let signing = try BenchSigning.sandboxShaped(authority)
    var servers: [Int: ServeProcess] = [:]
    defer { for server in servers.values { try? server.stop() } }
    for count in [smallHistory, largeHistory] {
      let directory = home.appendingPathComponent("history-\(count)")
      let ledger = try SQLiteLedgerStore(directory: directory)
      _ = try LedgerHistory.write(count: count, to: ledger, catalog: catalog, signing: signing, start: StoreStates.start)
      ledger.close()
      servers[count] = try ServeProcess(binary: binary, dataDirectory: directory, scratch: home)
    }
    guard let small = servers[smallHistory], let large = servers[largeHistory] else { return }

    try throughput(small, plan: plan, into: report)
    try historyPages(small: small, large: large, plan: plan, into: report)
    let rss = try large.peakRSSMegabytes()
    report.set("serve_peak_rss_mb_10k", rss)
    report.extra("serve_peak_rss_mb_100", try small.peakRSSMegabytes())
    report.note(
      "serve_peak_rss_mb_10k",
      "VmHWM of the serve process on the 10,000-transaction ledger after the history pages (and of the one on 100 transactions, serve_peak_rss_mb_100, after those and the wrk runs).")
    try latencyDuringRun(binary: binary, home: home, plan: plan, into: report)
  }

  /// `serve_info_requests_per_s` and `_vs_mhd_ceiling`: wrk on Get Transaction Info, alternated with
  /// wrk on the minimal responder answering the same bytes.
  private static func throughput(_ server: ServeProcess, plan: Plan, into report: Report) throws {
    let path = "/inApps/v1/transactions/\(firstID)"
    let connection = try RawHTTPConnection(port: server.port)
    try connection.send(server.get(path))
    let answer = try connection.receive(timeout: 30)
    guard answer.status == 200 else { throw BenchError.failed("serve answered \(answer.status) to \(path): \(answer.text.prefix(200))") }
    let responder = try MinimalResponder(body: answer.body)
    defer { responder.stop() }
    var serve: [Double] = []
    var ceiling: [Double] = []
    for repetition in 0..<plan.wrkRepeats {
      let serveURL = "http://127.0.0.1:\(server.port)\(path)"
      let ceilingURL = "http://127.0.0.1:\(responder.port)\(path)"
      let header = "Authorization: \(server.authorization)"
      if repetition % 2 == 0 {
        serve.append(try Wrk.requestsPerSecond(url: serveURL, header: header, seconds: plan.wrkSeconds))
        ceiling.append(try Wrk.requestsPerSecond(url: ceilingURL, header: header, seconds: plan.wrkSeconds))
      } else {
        ceiling.append(try Wrk.requestsPerSecond(url: ceilingURL, header: header, seconds: plan.wrkSeconds))
        serve.append(try Wrk.requestsPerSecond(url: serveURL, header: header, seconds: plan.wrkSeconds))
      }
    }
    let serveSample = Sample(values: serve, unit: "req/s")
    let ceilingSample = Sample(values: ceiling, unit: "req/s")
    report.record("serve_info_requests", serveSample)
    report.record("serve_mhd_ceiling_requests", ceilingSample)
    report.set("serve_info_requests_per_s", serveSample.median)
    report.set("serve_info_vs_mhd_ceiling", serveSample.median / ceilingSample.median)
    report.note(
      "serve_info_vs_mhd_ceiling",
      "wrk -t\(Wrk.threads) -c\(Wrk.connections) -d\(plan.wrkSeconds)s with the bearer token, keep-alive, loopback: GET /inApps/v1/transactions/\(firstID) on the real storefront serve (100-transaction ledger; each request checks the token (cached), stats api-keys.json, reads the row from SQLite and answers \(answer.body.count) B) vs a minimal libmicrohttpd responder in the bench process (same mode: internal polling thread + thread per connection) answering the same bytes at once; alternated, \(plan.wrkRepeats) runs each.")
  }

  /// `serve_history_page_*`: the first page (20 rows) of Get Transaction History v2 for the tester
  /// of each ledger, timed one request at a time over a keep-alive connection, the sizes alternating.
  private static func historyPages(small: ServeProcess, large: ServeProcess, plan: Plan, into report: Report) throws {
    let path = "/inApps/v2/history/\(firstID)"
    var times: [Int: [Double]] = [:]
    for repetition in 0...plan.pageRepeats {
      let order = repetition % 2 == 0 ? [smallHistory, largeHistory] : [largeHistory, smallHistory]
      for count in order {
        let server = count == smallHistory ? small : large
        // A connection per batch: serve closes one left idle for 30 s.
        let connection = try RawHTTPConnection(port: server.port)
        let request = server.get(path)
        for _ in 0..<plan.pageRequests {
          var status = 0
          var rows = 0
          let seconds = try Stopwatch.seconds {
            try connection.send(request)
            let response = try connection.receive(timeout: 60)
            status = response.status
            rows = ((try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["signedTransactions"] as? [Any])?.count ?? 0
          }
          guard status == 200, rows == 20 else { throw BenchError.failed("history page on \(count) transactions: status \(status), \(rows) rows") }
          if repetition > 0 { times[count, default: []].append(seconds * 1000) }
        }
        guard repetition > 0 else { continue }
        let batch = (times[count] ?? []).suffix(plan.pageRequests)
        FileHandle.standardError.write(Data("storefront-bench: serve: history page at \(count): \(Format.number(Sample(values: Array(batch), unit: "ms").median)) ms\n".utf8))
      }
    }
    let smallSample = Sample(values: times[smallHistory] ?? [], unit: "ms")
    let largeSample = Sample(values: times[largeHistory] ?? [], unit: "ms")
    report.record("serve_history_page_100", smallSample)
    report.record("serve_history_page_10k", largeSample)
    report.set("serve_history_page_100_ms", smallSample.median)
    report.set("serve_history_page_10k_ms", largeSample.median)
    report.set("serve_history_10k_vs_100", largeSample.median / smallSample.median)
    report.note(
      "serve_history_10k_vs_100",
      "GET /inApps/v2/history/\(firstID) (first page, 20 JWS) on serve over ledgers written by LedgerHistory (one tester; 100 vs 10,000 transactions; JWS of the sandbox signer's shape, not signed: serve does not verify them), one request at a time on a keep-alive connection, timed send → whole response; \(plan.pageRequests) per size per repetition, sizes alternating, repetition 0 dropped.")
  }

  /// `serve_info_p50/p99_ms_during_run`: Get Transaction Info one request at a time over a keep-alive
  /// connection while `storefront run` buys `runPurchases` consumables on the same data directory;
  /// the same requests before the run are the idle baseline.
  private static func latencyDuringRun(binary: String, home: URL, plan: Plan, into report: Report) throws {
    let directory = home.appendingPathComponent("live")
    let environment = StorefrontBinary.isolatedEnvironment(home: home)
    let product = "com.jake.sample.ExInAppPurchase.coins100"
    let first = home.appendingPathComponent("first.scenario")
    try Data("account backend\nset dialogs off\nbuy \(product)\n".utf8).write(to: first)
    let bought = try ChildProcess.run(binary, ["run", first.path, "--data-dir", directory.path], environment: environment, timeout: 60)
    guard bought.status == 0 else { throw BenchError.failed("storefront run (first purchase) failed: \(bought.summary)") }
    let server = try ServeProcess(binary: binary, dataDirectory: directory, scratch: home)
    defer { try? server.stop() }
    let connection = try RawHTTPConnection(port: server.port)
    let request = server.get("/inApps/v1/transactions/\(firstID)")
    func timed() throws -> Double {
      var status = 0
      let seconds = try Stopwatch.seconds {
        try connection.send(request)
        status = try connection.receive(timeout: 30).status
      }
      guard status == 200 else { throw BenchError.failed("Get Transaction Info answered \(status) during the run") }
      return seconds * 1000
    }
    let idle = try (0..<plan.idleRequests).map { _ in try timed() }

    let scenario = home.appendingPathComponent("purchases.scenario")
    try Data(("account backend\nset dialogs off\n" + String(repeating: "buy \(product)\n", count: plan.runPurchases)).utf8).write(to: scenario)
    let run = try ChildProcess.start(binary, ["run", scenario.path, "--data-dir", directory.path], environment: environment)
    let finished = Finished()
    let done = DispatchSemaphore(value: 0)
    Thread {
      finished.set(try? run.wait(timeout: 300))
      done.signal()
    }.start()
    var during: [Double] = []
    var ended = false
    let deadline = Stopwatch.nanoseconds() + 300_000_000_000
    // Bounded by the run's end, 300 s and a million requests.
    while !ended, during.count < 1_000_000, Stopwatch.nanoseconds() < deadline {
      during.append(try timed())
      ended = done.wait(timeout: .now()) == .success
    }
    if !ended { ended = done.wait(timeout: .now() + 330) == .success }
    guard ended, let result = finished.result, result.status == 0 else {
      throw BenchError.failed("storefront run of \(plan.runPurchases) purchases failed: \(finished.result?.summary ?? "did not end")")
    }
    let idleSample = Sample(values: idle, unit: "ms")
    let duringSample = Sample(values: during, unit: "ms")
    report.record("serve_info_latency_idle", idleSample)
    report.record("serve_info_latency_during_run", duringSample)
    report.set("serve_info_p50_ms_during_run", ProcessBenchmark.percentile(during.sorted(), 0.5))
    report.set("serve_info_p99_ms_during_run", ProcessBenchmark.percentile(during.sorted(), 0.99))
    report.extra("serve_info_p50_ms_idle", ProcessBenchmark.percentile(idle.sorted(), 0.5))
    report.extra("serve_info_p99_ms_idle", ProcessBenchmark.percentile(idle.sorted(), 0.99))
    report.extra("serve_info_max_ms_during_run", during.max() ?? .nan)
    report.note(
      "serve_info_p99_ms_during_run",
      "GET /inApps/v1/transactions/\(firstID) on the real serve, one request at a time on a keep-alive connection (send → whole response), \(during.count) requests while `storefront run` bought \(plan.runPurchases) consumables (dialogs off) on the same data directory; nearest-rank percentiles. Idle baseline: \(plan.idleRequests) requests before the run (serve_info_p50/p99_ms_idle).")
  }

  /// The run's result, handed from its waiting thread.
  private final class Finished: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var value: ProcessResult?

    func set(_ result: ProcessResult?) { lock.withLock { value = result } }
    var result: ProcessResult? { lock.withLock { value } }
  }
}
