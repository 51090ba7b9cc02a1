/// Sandbox controls for testing a client's retry code: which endpoints answer with an injected error
/// or late, and for how many requests.
public struct FaultPlan: Sendable, Equatable {
  /// What an injected fault answers instead of the real response.
  public enum Answer: Sendable, Equatable {
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
  public struct Fault: Sendable, Equatable {
    public var answer: Answer?
    public var delay: Duration?
    public var remaining: Int?

    public init(answer: Answer? = nil, delay: Duration? = nil, remaining: Int? = nil) {
      self.answer = answer
      self.delay = delay
      self.remaining = remaining
    }
  }

  /// Faults by endpoint.
  public var faults: [APIEndpoint: Fault]
  /// The fault of every endpoint without one of its own.
  public var everyEndpoint: Fault?

  public init(faults: [APIEndpoint: Fault] = [:], everyEndpoint: Fault? = nil) {
    self.faults = faults
    self.everyEndpoint = everyEndpoint
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
