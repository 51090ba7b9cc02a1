import Foundation

/// What a developer configured through the Retention Messaging API: uploaded images and messages with
/// their review states, the default message per product and locale, the realtime URL and the
/// performance tests run against it.
///
/// Kept in the ledger as one device value (``RetentionMessagingStore``), so every process on the
/// same ledger sees it: it is configuration of App Store Connect, not a purchase, so it is not in the
/// ledger's history. Identifiers are stored lowercased, as Apple's libraries write UUIDs.
public struct RetentionMessaging: Codable, Equatable, Sendable {
  /// Apple's `ImageState` / `MessageState`.
  public enum ReviewState: String, Codable, Sendable, CaseIterable {
    /// Uploaded, not reviewed yet: cannot be a default or shown.
    case pending = "PENDING"
    /// Reviewed and usable.
    case approved = "APPROVED"
    /// Reviewed and refused: never shown.
    case rejected = "REJECTED"
  }

  /// An uploaded image (the bytes are not kept: nothing draws them in a terminal).
  public struct Image: Codable, Equatable, Sendable {
    public var state: ReviewState
    /// `FULL_SIZE` or `BULLET_POINT`.
    public var size: String
    /// How many PNG bytes were uploaded.
    public var byteCount: Int

    public init(state: ReviewState, size: String, byteCount: Int) {
      self.state = state
      self.size = size
      self.byteCount = byteCount
    }
  }

  /// One bullet point of a message.
  public struct BulletPoint: Codable, Equatable, Sendable {
    public var text: String
    public var imageIdentifier: String
    public var altText: String

    public init(text: String, imageIdentifier: String, altText: String) {
      self.text = text
      self.imageIdentifier = imageIdentifier
      self.altText = altText
    }
  }

  /// An uploaded message (Apple's `UploadMessageRequestBody` and its review state).
  public struct Message: Codable, Equatable, Sendable {
    public var state: ReviewState
    /// At most 66 characters.
    public var header: String
    /// At most 144 characters.
    public var body: String
    public var imageIdentifier: String?
    public var altText: String?
    public var bulletPoints: [BulletPoint]?

    public init(
      state: ReviewState, header: String, body: String, imageIdentifier: String? = nil, altText: String? = nil,
      bulletPoints: [BulletPoint]? = nil
    ) {
      self.state = state
      self.header = header
      self.body = body
      self.imageIdentifier = imageIdentifier
      self.altText = altText
      self.bulletPoints = bulletPoints
    }
  }

  /// One performance test run (Apple's `PerformanceTestResultResponse`, times in milliseconds).
  public struct PerformanceTest: Codable, Equatable, Sendable {
    /// `PENDING`, `PASS` or `FAIL`.
    public var result: String
    public var target: String
    public var totalRequests: Int
    /// Requests not answered yet.
    public var numPending: Int
    /// Percent of requests answered in time with a valid body.
    public var successRate: Int?
    /// `average`, `p50`, `p90`, `p95`, `p99`.
    public var responseTimes: [String: Int]?
    /// Apple's `SendAttemptResult` names of the failed requests, counted.
    public var failures: [String: Int]?

    public init(
      result: String, target: String, totalRequests: Int, numPending: Int, successRate: Int? = nil,
      responseTimes: [String: Int]? = nil, failures: [String: Int]? = nil
    ) {
      self.result = result
      self.target = target
      self.totalRequests = totalRequests
      self.numPending = numPending
      self.successRate = successRate
      self.responseTimes = responseTimes
      self.failures = failures
    }
  }

  /// Keyed by lowercased image identifier.
  public var images: [String: Image]
  /// Keyed by lowercased message identifier.
  public var messages: [String: Message]
  /// Message identifier per ``defaultKey(productID:locale:)``.
  public var defaults: [String: String]
  /// The developer's Get Retention Message endpoint per environment (`Sandbox`, `Production`), as
  /// Apple keeps one per environment.
  public var realtimeURLs: [String: String]
  /// Keyed by the test's `requestId`.
  public var performanceTests: [String: PerformanceTest]
  /// The review state an upload gets: `APPROVED` (the default: the simulator has no reviewer), or
  /// `PENDING`/`REJECTED` to test how an app copes with a message still in review or refused.
  public var reviewOutcome: ReviewState

  public init(
    images: [String: Image] = [:], messages: [String: Message] = [:], defaults: [String: String] = [:],
    realtimeURLs: [String: String] = [:], performanceTests: [String: PerformanceTest] = [:], reviewOutcome: ReviewState = .approved
  ) {
    self.images = images
    self.messages = messages
    self.defaults = defaults
    self.realtimeURLs = realtimeURLs
    self.performanceTests = performanceTests
    self.reviewOutcome = reviewOutcome
  }

  /// The key of a default message: `productId/locale`.
  public static func defaultKey(productID: String, locale: String) -> String { "\(productID)/\(locale)" }

  /// The approved message configured as the default for `productID` in `locale`, if any.
  public func defaultMessage(productID: String, locale: String) -> (id: String, message: Message)? {
    guard let id = defaults[Self.defaultKey(productID: productID, locale: locale)], let message = messages[id],
      message.state == .approved
    else { return nil }
    return (id, message)
  }

  private enum CodingKeys: String, CodingKey {
    case images, messages, defaults, realtimeURLs, performanceTests, reviewOutcome
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    images = try container.decodeIfPresent([String: Image].self, forKey: .images) ?? [:]
    messages = try container.decodeIfPresent([String: Message].self, forKey: .messages) ?? [:]
    defaults = try container.decodeIfPresent([String: String].self, forKey: .defaults) ?? [:]
    realtimeURLs = try container.decodeIfPresent([String: String].self, forKey: .realtimeURLs) ?? [:]
    performanceTests = try container.decodeIfPresent([String: PerformanceTest].self, forKey: .performanceTests) ?? [:]
    reviewOutcome = try container.decodeIfPresent(ReviewState.self, forKey: .reviewOutcome) ?? .approved
  }
}
