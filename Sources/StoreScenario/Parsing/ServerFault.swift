import Foundation

/// A `server-fault` line: the sandbox control that makes `storefront serve` answer an endpoint with
/// an error or late, so a backend's retry code can be tested. Endpoints are the App Store Server
/// API's (`getTransactionInfo`, …, or `all`); the runner's owner checks the name when the line runs.
public enum ServerFault: Sendable, Equatable {
  /// Every fault removed.
  case clear
  /// The fault of `endpoint` removed.
  case off(endpoint: String)
  /// `endpoint` answers `answer` and/or after `delay`, for the next `count` requests (nil: all).
  case set(endpoint: String, answer: Answer?, delay: Duration?, count: Int?)

  /// `verifyReceipt` answers `status` (21100–21199, Apple's retryable internal errors) for the
  /// next `count` requests (nil: all).
  case verifyReceipt(status: Int, count: Int?)

  /// What an injected fault answers instead of the real response.
  public enum Answer: String, Sendable, Equatable, CaseIterable {
    /// 429 `RateLimitExceededError`.
    case rateLimit = "429"
    /// 500 `GeneralInternalError`.
    case internalError = "500"
    /// 500 `GeneralInternalRetryableError`.
    case retryable
  }
}
