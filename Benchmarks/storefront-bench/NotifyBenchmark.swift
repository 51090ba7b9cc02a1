import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontProcessTestSupport

/// Issue 14's figures for the real `storefront serve --notify` (release build, loopback): the time from
/// a commit of a notification (by this process, on serve's data directory) to its arrival at a
/// receiver, and notifications/s to that receiver against a plain libcurl POST loop's, same run.
enum NotifyBenchmark {
  static let keys = ["notify_commit_to_webhook_p50_ms", "notify_commit_to_webhook_p99_ms", "notify_per_s", "notify_per_s_vs_curl_loop"]

  struct Plan {
    /// Single commits timed to their arrival, one at a time.
    var latencySamples: Int
    /// Notifications of the throughput run (committed in one batch), and its repetitions.
    var burst: Int
    var burstRepeats: Int

    static let quick = Plan(latencySamples: 50, burst: 200, burstRepeats: 2)
    static let full = Plan(latencySamples: 500, burst: 2_000, burstRepeats: 3)
  }

  static func run(binary: String, plan: Plan, scratch: URL, into report: Report) throws {
    let home = scratch.appendingPathComponent("notify")
    let directory = home.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let receiver = try WebhookReceiver()
    defer { receiver.stop() }
    let ledger = try SQLiteLedgerStore(directory: directory)
    defer { ledger.close() }
    try ledger.commit([.setNotificationURL(environment: "Sandbox", url: receiver.url)])
    let server = try ServeProcess(binary: binary, dataDirectory: directory, scratch: home)
    defer { try? server.stop() }

    var sequence: UInt64 = 0
    func notification() -> LedgerChange {
      sequence += 1
      // A transaction's JWS is about 1.4 KB: the payload carries one of that size.
      var queued = ServerNotification(
        notificationType: .oneTimeCharge, transactionID: PaymentTransaction.ID(sequence), originalTransactionID: PaymentTransaction.ID(sequence),
        signedTransactionInfo: String(repeating: "x", count: 1_400), date: StoreStates.start)
      queued.environment = "Sandbox"
      return .putNotification(queued)
    }

    // Latency: one commit at a time, waiting (bounded) for its arrival.
    var latencies: [Double] = []
    for index in 0..<(plan.latencySamples + 5) {
      let before = receiver.requests.count
      let committed = ContinuousClock.now
      try ledger.commit([notification()])
      guard receiver.waitForRequests(before + 1, timeout: .seconds(30)), let arrived = receiver.requests.last?.receivedAt else {
        throw BenchError.failed("notification \(index) did not arrive within 30 s")
      }
      let elapsed = arrived - committed
      // The first few warm serve and the connection path up.
      if index >= 5 { latencies.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) }
    }
    let sorted = latencies.sorted()
    report.record("notify_commit_to_webhook", Sample(values: latencies, unit: "ms"))
    report.set("notify_commit_to_webhook_p50_ms", ProcessBenchmark.percentile(sorted, 0.5))
    report.set("notify_commit_to_webhook_p99_ms", ProcessBenchmark.percentile(sorted, 0.99))
    report.extra("notify_commit_to_webhook_max_ms", sorted.last ?? .nan)
    report.note(
      "notify_commit_to_webhook_p99_ms",
      "A ONE_TIME_CHARGE notification committed to serve's data directory by the bench process (its own SQLite connection), one at a time; from the start of the commit (its own sync to disk included) to the receiver (WebhookReceiver, 127.0.0.1, Connection: close) having read the whole POST. Serve wakes on inotify, signs (ES256), records the UUID and payload, POSTs with libcurl, records the attempt. \(latencies.count) samples after 5 warm-up; nearest-rank percentiles.")

    // Throughput: a batch of independent notifications, and the same number of plain libcurl POSTs.
    guard let body = receiver.requests.last?.body else { throw BenchError.failed("no notification body to replay") }
    var deliverer: [Double] = []
    var loop: [Double] = []
    for _ in 0..<plan.burstRepeats {
      let before = receiver.requests.count
      let batch = (0..<plan.burst).map { _ in notification() }
      let start = ContinuousClock.now
      try ledger.commit(batch)
      guard receiver.waitForRequests(before + plan.burst, timeout: .seconds(300)), let last = receiver.requests.last?.receivedAt else {
        throw BenchError.failed("the burst of \(plan.burst) was not delivered within 300 s")
      }
      let elapsed = last - start
      deliverer.append(Double(plan.burst) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
      loop.append(Double(plan.burst) / (try CurlPostLoop.seconds(posting: body, to: receiver.url, count: plan.burst)))
    }
    let delivered = Sample(values: deliverer, unit: "notifications/s")
    let baseline = Sample(values: loop, unit: "POST/s")
    report.record("notify_burst", delivered)
    report.record("notify_curl_loop", baseline)
    report.set("notify_per_s", delivered.median)
    report.set("notify_per_s_vs_curl_loop", delivered.median / baseline.median)
    report.note(
      "notify_per_s_vs_curl_loop",
      "\(plan.burst) independent ONE_TIME_CHARGE notifications committed in one batch; from the commit to the receiver reading the last (serve signs each with ES256 and writes the ledger twice per notification, synchronous=FULL), vs a plain libcurl POST loop in the bench process sending the same \(body.count)-byte body \(plan.burst) times to the same receiver (one easy handle); alternated, \(plan.burstRepeats) runs each.")
  }
}
