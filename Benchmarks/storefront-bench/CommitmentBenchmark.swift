import Foundation
import StoreEngine

/// `commitment_year_ms` (issue 36, DECISIONS §43): a year of a yearly subscription billed monthly
/// with a 12-month commitment (twelve payments: eleven renewals inside the commitment, then the
/// first of the next), on a live-like store (SQLite ledger, the sandbox CA's ES256 signer), beside
/// its baseline in the same run: a year of a plain monthly subscription at the same price (twelve
/// renewals, no commitment). Their ratio is what the commitment's bookkeeping costs a payment
/// (its plan and commitment in each row and payload, which `JSONEncoder` writes).
enum CommitmentBenchmark {
  static let keys = ["commitment_year_ms", "plain_monthly_year_ms", "commitment_year_vs_plain_monthly"]

  static let yearly = Product.ID("bench.commitment.yearly")
  static let monthly = Product.ID("bench.commitment.monthly")

  /// A group with a plain monthly product and a yearly one sold up front or monthly (3.99 × 12).
  static var catalog: Catalog {
    let price = Decimal(string: "3.99") ?? 0
    let plans = [
      BillingPlan(type: BillingPlan.upFront, price: Decimal(string: "39.99") ?? 0, commitmentPrice: Decimal(string: "39.99") ?? 0, isEnabled: true),
      BillingPlan(type: BillingPlan.monthly, price: price, commitmentPrice: Decimal(string: "47.88") ?? 0, isEnabled: true),
    ]
    return Catalog(
      formatVersion: .init(major: 5, minor: 0),
      products: [
        Product(
          id: monthly, kind: .autoRenewableSubscription, referenceName: "Monthly", price: price,
          subscription: SubscriptionInfo(groupID: "BENCH", level: 2, period: SubscriptionPeriod(value: 1, unit: .month))),
        Product(
          id: yearly, kind: .autoRenewableSubscription, referenceName: "Yearly", price: Decimal(string: "39.99") ?? 0,
          subscription: SubscriptionInfo(groupID: "BENCH", level: 1, period: SubscriptionPeriod(value: 1, unit: .year), billingPlans: plans)),
      ],
      subscriptionGroups: [SubscriptionGroup(id: "BENCH", name: "Bench", productIDs: [monthly, yearly])])
  }

  static func run(repeats: Int, scratch: URL, into report: Report) throws {
    var commitment = Sample(values: [], unit: "ms")
    var plain = Sample(values: [], unit: "ms")
    // Alternated, so that drift on a shared machine lands on both alike.
    for index in 0..<repeats {
      commitment.values.append(try year(plan: BillingPlan.monthly, scratch: scratch.appendingPathComponent("c\(index)")))
      plain.values.append(try year(plan: nil, scratch: scratch.appendingPathComponent("p\(index)")))
    }
    report.record("commitment_year", commitment)
    report.record("plain_monthly_year", plain)
    report.set("commitment_year_ms", commitment.median)
    report.set("plain_monthly_year_ms", plain.median)
    report.set("commitment_year_vs_plain_monthly", commitment.median / plain.median)
    report.note(
      "commitment_year_ms",
      "A year (twelve monthly payments) of a yearly subscription bought on its MONTHLY plan, advanced one month per step on a live-like store (SQLite ledger in a fresh directory, ES256 signing): the wall time of the twelve advances. Baseline in the same run: plain_monthly_year_ms, a monthly subscription at the same price. Target: the ratio ≤ 1.2 (the commitment is bookkeeping, not work).")
  }

  /// Buys (on `plan`, or the plain monthly product when nil) and times twelve one-month advances.
  private static func year(plan: String?, scratch: URL) throws -> Double {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let store = try BenchStore.live(in: scratch, catalog: catalog, authority: try BenchStore.authority(in: scratch))
    let queue = store.queue
    try queue.signIn("bench")
    try queue.set(.dialogs(false))
    var payment = Payment(productID: plan == nil ? monthly : yearly)
    payment.billingPlanType = plan
    let id = try queue.add(payment)
    guard let bought = try queue.transaction(id), bought.state == .purchased else {
      throw BenchError.failed("the \(plan ?? "plain monthly") purchase did not go through")
    }
    try queue.finish(id)
    let month = SubscriptionPeriod(value: 1, unit: .month)
    let start = queue.now
    let seconds = try Stopwatch.seconds {
      for step in 1...12 { try queue.advance(to: month.advance(start, times: step).addingTimeInterval(1)) }
    }
    let paid = try queue.history().filter { $0.originalID == bought.originalID && $0.state == .purchased }
    guard paid.count == 13 else { throw BenchError.failed("\(paid.count) payments in a year, expected 13") }
    if plan != nil, paid.last?.commitment?.billingPeriodNumber != 1 {
      throw BenchError.failed("the thirteenth payment did not begin a new commitment")
    }
    return seconds * 1000
  }
}
