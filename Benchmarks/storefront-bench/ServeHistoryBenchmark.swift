import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontProcessTestSupport

/// Issue 23's "the present costs the present" for the real `storefront serve`: on a 100- and a
/// 100,000-transaction ledger (``LedgerHistory``), the first Get Transaction History page (both
/// sorts) and Get All Subscription Statuses, each 100k median next to its 100 one from the same
/// run, and each serve's peak RSS after those requests.
enum ServeHistoryBenchmark {
  static let keys = [
    "serve_history_first_page_100_ms", "serve_history_first_page_100k_ms", "serve_history_first_page_100k_vs_100",
    "serve_history_descending_100k_vs_100", "serve_statuses_100_ms", "serve_statuses_100k_ms", "serve_statuses_100k_vs_100",
    "serve_history_peak_rss_mb_100", "serve_history_peak_rss_mb_100k", "serve_refunds_100_ms", "serve_refunds_100k_ms",
    "serve_refunds_100k_vs_100",
  ]

  struct Plan {
    /// Requests timed per size per repetition, and repetitions (the first is dropped: warm-up).
    var requests: Int
    var repeats: Int

    static let quick = Plan(requests: 10, repeats: 3)
    static let full = Plan(requests: 40, repeats: 7)
  }

  static let small = 100
  static let large = 100_000

  /// What is asked, and how many rows/chains its answer must hold.
  private struct Query {
    var key: String
    var path: String
    /// Whether the answer on the ledger of this many transactions is whole.
    var check: (_ answer: [String: Any], _ count: Int) -> Bool
  }

  /// Refunds written into each ledger: the tester's first purchased non-subscription rows.
  static let refunds = 10

  /// Marks ``refunds`` of the tester's first rows refunded, a second apart (their JWS as written:
  /// serve does not read a refund from it), so Get Refund History has the same answer at both sizes.
  private static func revokeSome(in ledger: SQLiteLedgerStore) throws {
    let first = try ledger.historyPage(account: LedgerHistory.account, order: .insertion, after: nil, limit: 200).rows
    var revoked = first.filter { $0.state == .purchased && $0.productKind != .autoRenewableSubscription }.prefix(refunds)
    guard revoked.count == refunds else { throw BenchError.failed("serve_history: fewer than \(refunds) rows to refund") }
    for (offset, index) in revoked.indices.enumerated() {
      revoked[index].revocationDate = StoreStates.start.addingTimeInterval(Double(offset))
      revoked[index].revocationReason = 0
    }
    try ledger.commit(revoked.map { .putTransaction($0) })
  }

  static func run(catalog: Catalog, binary: String, plan: Plan, scratch: URL, into report: Report) throws {
    let home = scratch.appendingPathComponent("serve-history")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let authority = try BenchStore.authority(in: home)
    // serve never checks a signature, so JWS of the real shape without the ECDSA step are the same bytes to it.
    let signing = try BenchSigning.sandboxShaped(authority)
    var servers: [Int: ServeProcess] = [:]
    defer { for server in servers.values { try? server.stop() } }
    var chains: [Int: Int] = [:]
    for count in [small, large] {
      let directory = home.appendingPathComponent("history-\(count)")
      let ledger = try SQLiteLedgerStore(directory: directory)
      let summary = try LedgerHistory.write(count: count, to: ledger, catalog: catalog, signing: signing, start: StoreStates.start)
      try revokeSome(in: ledger)
      ledger.close()
      chains[count] = summary.subscriptionPurchases
      FileHandle.standardError.write(Data("storefront-bench: serve_history: wrote \(count) transactions in \(Format.number(summary.seconds)) s\n".utf8))
      servers[count] = try ServeProcess(binary: binary, dataDirectory: directory, scratch: home)
    }
    guard let smallServer = servers[small], let largeServer = servers[large] else { return }
    report.extra("serve_history_rss_mb_at_start_100k", try largeServer.peakRSSMegabytes())

    let id = ServeBenchmark.firstID
    func rows(_ object: [String: Any]) -> Int { (object["signedTransactions"] as? [Any])?.count ?? 0 }
    func lastTransactions(_ object: [String: Any]) -> Int {
      (object["data"] as? [[String: Any]] ?? []).reduce(0) { $0 + (($1["lastTransactions"] as? [Any])?.count ?? 0) }
    }
    let queries = [
      Query(key: "first_page", path: "/inApps/v2/history/\(id)") { answer, _ in rows(answer) == 20 },
      Query(key: "descending", path: "/inApps/v2/history/\(id)?sort=DESCENDING") { answer, _ in rows(answer) == 20 },
      // Every chain: 1 at 100 transactions, 50 (49 expired) at 100,000, so the answer is 50 times larger.
      Query(key: "statuses", path: "/inApps/v1/subscriptions/\(id)") { answer, count in lastTransactions(answer) == chains[count] },
      // The active chain only: the same answer size at both.
      Query(key: "statuses_active", path: "/inApps/v1/subscriptions/\(id)?status=1") { answer, _ in lastTransactions(answer) == 1 },
      // The same refunds at both sizes (``revokeSome(in:)``): the answer is the same size.
      Query(key: "refunds", path: "/inApps/v2/refund/lookup/\(id)") { answer, _ in rows(answer) == refunds },
      Query(key: "refunds_v1", path: "/inApps/v1/refund/lookup/\(id)") { answer, _ in rows(answer) == refunds },
    ]
    var medians: [String: [Int: Double]] = [:]
    for query in queries {
      var times: [Int: [Double]] = [:]
      for repetition in 0...plan.repeats {
        for count in repetition % 2 == 0 ? [small, large] : [large, small] {
          let server = count == small ? smallServer : largeServer
          let connection = try RawHTTPConnection(port: server.port)
          let request = server.get(query.path)
          for _ in 0..<plan.requests {
            var status = 0
            var object: [String: Any] = [:]
            let seconds = try Stopwatch.seconds {
              try connection.send(request)
              let response = try connection.receive(timeout: 120)
              status = response.status
              object = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:]
            }
            guard status == 200, query.check(object, count) else {
              throw BenchError.failed("\(query.path) on \(count) transactions: status \(status), \(rows(object)) rows, \(lastTransactions(object)) chains")
            }
            if repetition > 0 { times[count, default: []].append(seconds * 1000) }
          }
        }
      }
      for count in [small, large] {
        let sample = Sample(values: times[count] ?? [], unit: "ms")
        report.record("serve_\(query.key)_\(count == small ? "100" : "100k")", sample)
        medians[query.key, default: [:]][count] = sample.median
      }
      FileHandle.standardError.write(
        Data("storefront-bench: serve_history: \(query.key): \(Format.number(medians[query.key]?[small] ?? .nan)) ms at 100, \(Format.number(medians[query.key]?[large] ?? .nan)) ms at 100k\n".utf8))
    }
    func set(_ name: String, _ key: String) {
      let pair = medians[key] ?? [:]
      report.set("\(name)_100_ms", pair[small] ?? .nan)
      report.set("\(name)_100k_ms", pair[large] ?? .nan)
      report.set("\(name)_100k_vs_100", (pair[large] ?? .nan) / (pair[small] ?? .nan))
    }
    set("serve_history_first_page", "first_page")
    set("serve_statuses", "statuses")
    set("serve_refunds", "refunds")
    let v1 = medians["refunds_v1"] ?? [:]
    report.extra("serve_refunds_v1_100_ms", v1[small] ?? .nan)
    report.extra("serve_refunds_v1_100k_ms", v1[large] ?? .nan)
    report.extra("serve_refunds_v1_100k_vs_100", (v1[large] ?? .nan) / (v1[small] ?? .nan))
    let active = medians["statuses_active"] ?? [:]
    report.extra("serve_statuses_active_100_ms", active[small] ?? .nan)
    report.extra("serve_statuses_active_100k_ms", active[large] ?? .nan)
    report.extra("serve_statuses_active_100k_vs_100", (active[large] ?? .nan) / (active[small] ?? .nan))
    let descending = medians["descending"] ?? [:]
    report.set("serve_history_descending_100k_vs_100", (descending[large] ?? .nan) / (descending[small] ?? .nan))
    report.extra("serve_history_descending_100_ms", descending[small] ?? .nan)
    report.extra("serve_history_descending_100k_ms", descending[large] ?? .nan)
    report.set("serve_history_peak_rss_mb_100", try smallServer.peakRSSMegabytes())
    report.set("serve_history_peak_rss_mb_100k", try largeServer.peakRSSMegabytes())
    report.note(
      "serve_history_first_page_100k_vs_100",
      "GET /inApps/v2/history/\(id) (first page, 20 JWS; and ?sort=DESCENDING), GET /inApps/v1/subscriptions/\(id) (\(chains[small] ?? 0) and \(chains[large] ?? 0) chains; and ?status=1) and GET /inApps/v2/refund/lookup/\(id) (\(refunds) refunds at both; v1 in extras) on two real storefront serve processes over ledgers written by LedgerHistory (one tester; 100 vs 100,000 transactions; JWS of the sandbox signer's shape, unsigned: serve does not verify them), one request at a time on a keep-alive connection, send → whole response; \(plan.requests) per size per repetition, sizes alternating, repetition 0 dropped; medians.")
    report.note(
      "serve_history_peak_rss_mb_100k",
      "VmHWM of each serve process after all those requests (serve_history_rss_mb_at_start_100k: the 100k one before any).")
  }
}
