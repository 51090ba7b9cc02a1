import Foundation
import StoreEngine

/// Runs a Retention Messaging performance test against the developer's Get Retention Message
/// endpoint, as Apple's sandbox does: `totalRequests` signed realtime requests for the test's
/// subscription, `maxConcurrentRequests` at a time; a request succeeds when it is answered 200 with a
/// `RealtimeResponseBody` (a JSON object) within `responseTimeThreshold`. The result (Apple's
/// `PerformanceTestResultResponse` values) goes to the ledger (``RetentionMessagingStore``) when the last request
/// is done, so a `Get Performance Test Results` before then answers `PENDING`.
public enum RetentionPerformanceTest {
  /// What the test measures against.
  public struct Limits: Sendable, Equatable {
    public var totalRequests: Int
    public var maxConcurrentRequests: Int
    public var responseTimeThreshold: Duration
    /// Percent.
    public var successRateThreshold: Int

    public init(totalRequests: Int, maxConcurrentRequests: Int, responseTimeThreshold: Duration, successRateThreshold: Int) {
      self.totalRequests = totalRequests
      self.maxConcurrentRequests = maxConcurrentRequests
      self.responseTimeThreshold = responseTimeThreshold
      self.successRateThreshold = successRateThreshold
    }
  }

  /// The test's subscription and endpoint.
  public struct Target: Sendable, Equatable {
    public var requestID: String
    public var url: String
    public var originalTransactionID: String
    public var productID: String

    public init(requestID: String, url: String, originalTransactionID: String, productID: String) {
      self.requestID = requestID
      self.url = url
      self.originalTransactionID = originalTransactionID
      self.productID = productID
    }
  }

  /// Runs the test on its own threads and records the result in `store`; returns at once.
  public static func start(
    _ target: Target, limits: Limits, signer: any TransactionSigner, appAppleID: Int64, store: RetentionMessagingStore
  ) {
    let thread = Thread {
      let outcomes = run(target, limits: limits, signer: signer, appAppleID: appAppleID)
      let result = summary(outcomes, limits: limits, url: target.url)
      _ = try? store.update { state in state.performanceTests[target.requestID] = result }
    }
    thread.name = "retention-performance-test"
    thread.start()
  }

  /// Every request's outcome, in no particular order.
  public static func run(
    _ target: Target, limits: Limits, signer: any TransactionSigner, appAppleID: Int64
  ) -> [RetentionRealtimeClient.Outcome] {
    let outcomes = Locked<[RetentionRealtimeClient.Outcome]>([])
    let next = Locked(0)
    let workers = max(1, min(limits.maxConcurrentRequests, limits.totalRequests))
    let group = DispatchGroup()
    for _ in 0..<workers {
      group.enter()
      let thread = Thread {
        // A generous bound beside the threshold: a slow answer is measured, a hung one cut off.
        let client = RetentionRealtimeClient(signer: signer, appAppleID: appAppleID, timeout: limits.responseTimeThreshold * 3)
        while true {
          let index = next.withLock { value -> Int in
            defer { value += 1 }
            return value
          }
          guard index < limits.totalRequests else { break }
          let request = RetentionRealtimeClient.Request(
            originalTransactionID: target.originalTransactionID, productID: target.productID, userLocale: "en-US",
            requestIdentifier: UUID(), signedDate: Date())
          let outcome = client.call(request, url: target.url)
          outcomes.withLock { $0.append(outcome) }
        }
        group.leave()
      }
      thread.start()
    }
    group.wait()
    return outcomes.withLock { $0 }
  }

  /// Apple's result values for `outcomes`: success rate, percentiles (ms), failures by name.
  public static func summary(
    _ outcomes: [RetentionRealtimeClient.Outcome], limits: Limits, url: String
  ) -> RetentionMessaging.PerformanceTest {
    let threshold = Double(limits.responseTimeThreshold.components.seconds) * 1000
      + Double(limits.responseTimeThreshold.components.attoseconds) / 1e15
    var failures: [String: Int] = [:]
    var successes = 0
    for outcome in outcomes {
      switch outcome.answer {
      case .failed(let name): failures[name, default: 0] += 1
      case .answered(let status, let body):
        if status != 200 {
          failures[DeliveryAttempt.Result.unsuccessfulHTTPResponseCode.rawValue, default: 0] += 1
        } else if !((try? JSONSerialization.jsonObject(with: body)) is [String: Any]) {
          failures[DeliveryAttempt.Result.invalidResponse.rawValue, default: 0] += 1
        } else if outcome.milliseconds > threshold {
          failures[DeliveryAttempt.Result.timedOut.rawValue, default: 0] += 1
        } else {
          successes += 1
        }
      }
    }
    let times = outcomes.map(\.milliseconds).sorted()
    func percentile(_ p: Double) -> Int {
      guard !times.isEmpty else { return 0 }
      let index = min(times.count - 1, max(0, Int((p * Double(times.count)).rounded(.up)) - 1))
      return Int(times[index].rounded())
    }
    let rate = outcomes.isEmpty ? 0 : successes * 100 / outcomes.count
    let average = times.isEmpty ? 0 : Int((times.reduce(0, +) / Double(times.count)).rounded())
    return RetentionMessaging.PerformanceTest(
      result: rate >= limits.successRateThreshold ? "PASS" : "FAIL", target: url, totalRequests: limits.totalRequests,
      numPending: 0, successRate: rate,
      responseTimes: ["average": average, "p50": percentile(0.5), "p90": percentile(0.9), "p95": percentile(0.95), "p99": percentile(0.99)],
      failures: failures.isEmpty ? nil : failures)
  }
}
