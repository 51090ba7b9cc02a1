import Foundation
import StorefrontProcessTestSupport

/// Issue 15's figures: `POST /verifyReceipt` on the real `storefront serve` for a receipt with
/// 1,000 in-app purchases (wrk with a POST script), alternated with Get Transaction Info on the
/// same server as the baseline.
enum ReceiptBenchmark {
  static let keys = [
    "verify_receipt_1000_requests_per_s", "verify_receipt_1000_p99_ms", "verify_receipt_1000_vs_info",
  ]

  struct Plan {
    var wrkSeconds: Int
    var wrkRepeats: Int
    /// In-app purchases in the receipt (unfinished consumables: Apple keeps every one).
    var entries: Int

    static let quick = Plan(wrkSeconds: 1, wrkRepeats: 1, entries: 100)
    static let full = Plan(wrkSeconds: 5, wrkRepeats: 3, entries: 1_000)
  }

  static func run(binary: String, plan: Plan, scratch: URL, into report: Report) throws {
    let home = scratch.appendingPathComponent("receipt")
    let data = home.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let environment = StorefrontBinary.isolatedEnvironment(home: home)
    let script = "account bench\nset dialogs off\n"
      + String(repeating: "buy com.jake.sample.ExInAppPurchase.coins100\n", count: plan.entries)
    let bought = try ChildProcess.run(
      binary, ["run", "-", "--data-dir", data.path], stdin: Data(script.utf8), environment: environment, timeout: 600)
    guard bought.status == 0 else { throw BenchError.failed("storefront run failed: \(bought.summary)") }
    let exported = try ChildProcess.run(binary, ["receipt", "--data-dir", data.path], environment: environment, timeout: 60)
    guard exported.status == 0 else { throw BenchError.failed("storefront receipt failed: \(exported.summary)") }
    let receipt = exported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let body = "{\"receipt-data\":\"\(receipt)\"}"
    let lua = home.appendingPathComponent("verify.lua")
    try Data("wrk.method = \"POST\"\nwrk.body = '\(body)'\nwrk.headers[\"Content-Type\"] = \"application/json\"\n".utf8)
      .write(to: lua)

    let server = try ServeProcess(binary: binary, dataDirectory: data, scratch: home)
    defer { try? server.stop() }
    let verifyURL = "http://127.0.0.1:\(server.port)/verifyReceipt"
    let infoURL = "http://127.0.0.1:\(server.port)/inApps/v1/transactions/\(ServeBenchmark.firstID)"
    let header = "Authorization: \(server.authorization)"
    var verify: [Double] = []
    var p99: [Double] = []
    var info: [Double] = []
    for _ in 0..<plan.wrkRepeats {
      let measured = try Wrk.run(url: verifyURL, header: nil, seconds: plan.wrkSeconds, script: lua.path)
      verify.append(measured.requestsPerSecond)
      p99.append(measured.p99Milliseconds)
      info.append(try Wrk.run(url: infoURL, header: header, seconds: plan.wrkSeconds, script: nil).requestsPerSecond)
    }
    let verifySample = Sample(values: verify, unit: "req/s")
    let infoSample = Sample(values: info, unit: "req/s")
    report.set("verify_receipt_1000_requests_per_s", verifySample.median)
    report.set("verify_receipt_1000_p99_ms", Sample(values: p99, unit: "ms").median)
    report.set("verify_receipt_1000_vs_info", verifySample.median / infoSample.median)
    report.record("verify_receipt_1000", verifySample)
    report.record("verify_receipt_baseline_get_transaction_info", infoSample)
    report.note(
      "verify_receipt_1000_requests_per_s",
      "wrk -t\(Wrk.threads) -c\(Wrk.connections) -d\(plan.wrkSeconds)s --latency, keep-alive, loopback: POST /verifyReceipt with a \(receipt.count)-character base64 receipt of \(plan.entries) in-app purchases (each request: JSON parse, base64, CMS_verify against the root, every attribute read with ASN1_get_object, the account's history from SQLite, the JSON answer) vs Get Transaction Info on the same serve; alternated, \(plan.wrkRepeats) runs each.")
  }
}
