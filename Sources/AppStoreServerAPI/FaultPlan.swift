/// Sandbox controls for testing a client's retry code: which endpoints answer with an injected error
/// or late, and for how many requests.
public struct FaultPlan: Sendable, Equatable, Codable {
  /// What an injected fault answers instead of the real response.
  public enum Answer: String, Sendable, Equatable, Codable, CaseIterable {
    /// 429 `RateLimitExceededError` (4290000).
    case rateLimitExceeded
    /// 500 `GeneralInternalError` (5000000).
    case generalInternal
    /// 500 `GeneralInternalRetryableError` (5000001).
    case generalInternalRetryable

    var error: APIError {
      switch self {
      case .rateLimitExceeded: .rateLimitExceeded
      case .generalInternal: .generalInternal
      case .generalInternalRetryable: .generalInternalRetryable
      }
    }
  }

  /// One endpoint's fault: an error answer, a delay before answering (the real answer, or the error),
  /// or both; for the next `remaining` requests, or every request when nil.
  public struct Fault: Sendable, Equatable, Codable {
    public var answer: Answer?
    public var delay: Duration?
    public var remaining: Int?

    public init(answer: Answer? = nil, delay: Duration? = nil, remaining: Int? = nil) {
      self.answer = answer
      self.delay = delay
      self.remaining = remaining
    }

    private enum CodingKeys: String, CodingKey {
      case answer, remaining
      case delay = "delayMilliseconds"
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      answer = try container.decodeIfPresent(Answer.self, forKey: .answer)
      remaining = try container.decodeIfPresent(Int.self, forKey: .remaining)
      delay = try container.decodeIfPresent(Int64.self, forKey: .delay).map { .milliseconds($0) }
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeIfPresent(answer, forKey: .answer)
      try container.encodeIfPresent(remaining, forKey: .remaining)
      try container.encodeIfPresent(delay.map { $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000 }, forKey: .delay)
    }
  }

  /// Faults by endpoint (stored by the endpoint's name).
  public var faults: [APIEndpoint: Fault]
  /// The fault of every endpoint without one of its own.
  public var everyEndpoint: Fault?
  /// `verifyReceipt`'s injected status (not an App Store Server API endpoint, so kept apart).
  public var verifyReceipt: ReceiptFault?

  public init(faults: [APIEndpoint: Fault] = [:], everyEndpoint: Fault? = nil) {
    self.faults = faults
    self.everyEndpoint = everyEndpoint
  }

  private enum CodingKeys: String, CodingKey {
    case faults, everyEndpoint, verifyReceipt
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let named = try container.decodeIfPresent([String: Fault].self, forKey: .faults) ?? [:]
    // A name this build does not know (a newer one wrote it) is left out, not an error.
    faults = Dictionary(uniqueKeysWithValues: named.compactMap { name, fault in APIEndpoint(rawValue: name).map { ($0, fault) } })
    everyEndpoint = try container.decodeIfPresent(Fault.self, forKey: .everyEndpoint)
    verifyReceipt = try container.decodeIfPresent(ReceiptFault.self, forKey: .verifyReceipt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Dictionary(uniqueKeysWithValues: faults.map { ($0.key.rawValue, $0.value) }), forKey: .faults)
    try container.encodeIfPresent(everyEndpoint, forKey: .everyEndpoint)
    try container.encodeIfPresent(verifyReceipt, forKey: .verifyReceipt)
  }

  /// Whether no endpoint has a fault.
  public var isEmpty: Bool { faults.isEmpty && everyEndpoint == nil && verifyReceipt == nil }

  /// The status `verifyReceipt` answers this request instead (21100–21199), counted down.
  public mutating func takeReceiptStatus() -> Int? {
    guard let fault = verifyReceipt else { return nil }
    if let remaining = fault.remaining {
      verifyReceipt = remaining > 1 ? ReceiptFault(status: fault.status, remaining: remaining - 1) : nil
    }
    return fault.status
  }

  /// The fault that applies to this request to `endpoint`, counting it against `remaining` (a fault
  /// used up is removed).
  public mutating func take(for endpoint: APIEndpoint) -> Fault? {
    if let fault = faults[endpoint] {
      faults[endpoint] = Self.counted(fault)
      return fault
    }
    guard let fault = everyEndpoint else { return nil }
    everyEndpoint = Self.counted(fault)
    return fault
  }

  private static func counted(_ fault: Fault) -> Fault? {
    guard let remaining = fault.remaining else { return fault }
    guard remaining > 1 else { return nil }
    var left = fault
    left.remaining = remaining - 1
    return left
  }
}
