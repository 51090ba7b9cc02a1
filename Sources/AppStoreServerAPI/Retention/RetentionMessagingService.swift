import Foundation
import StoreEngine

/// What the Retention Messaging API endpoints need beside the ledger: the data directory's
/// configuration (in the ledger) and a way to run a performance test against the developer's endpoint (the
/// HTTP client lives in `ServerNotifications`, outside this module).
public struct RetentionMessagingService: Sendable {
  /// One performance test to run: its id, the endpoint, and the subscription the requests name.
  public struct PerformanceTestRun: Sendable, Equatable {
    public var requestID: String
    public var target: String
    public var originalTransactionID: String
    public var productID: String
  }

  /// Where the configuration is kept: the ledger.
  public let store: RetentionMessagingStore
  /// Starts `run` in the background; the runner writes its result to ``store`` when done.
  public let startPerformanceTest: @Sendable (PerformanceTestRun) -> Void
  /// A new performance test `requestId` (Apple's are UUIDs).
  public let makeRequestID: @Sendable () -> String

  public init(
    store: RetentionMessagingStore, startPerformanceTest: @escaping @Sendable (PerformanceTestRun) -> Void,
    makeRequestID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
  ) {
    self.store = store
    self.startPerformanceTest = startPerformanceTest
    self.makeRequestID = makeRequestID
  }

  /// The simulator's test: Apple documents a response within about 700 ms in the sandbox; the
  /// request count and concurrency are the simulator's own (Apple's are not published), small so
  /// a test finishes in well under a second against a prompt endpoint.
  public struct Config: Sendable, Equatable, Encodable {
    public var maxConcurrentRequests = 4
    public var totalRequests = 40
    /// The longest the test may run, in milliseconds.
    public var totalDuration = 30_000
    /// Milliseconds within which an answer counts as a success.
    public var responseTimeThreshold = 700
    /// Percent of successes needed to pass.
    public var successRateThreshold = 95
  }

  /// The configuration of every performance test.
  public static let config = Config()

  /// The most images (Apple's documented limit) and messages (assumed the same) an app may have.
  public static let maximumImages = 2_000
  public static let maximumMessages = 2_000
}
