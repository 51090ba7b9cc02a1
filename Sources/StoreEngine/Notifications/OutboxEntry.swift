import Foundation

/// One notification in the ledger's outbox with its delivery so far: what Get Notification History
/// and the Server pane show, and what the process that serves delivers.
public struct OutboxEntry: Sendable, Equatable {
  /// Where it delivery stands.
  public enum State: Int, Sendable, Equatable, Codable {
    /// Waiting for its first attempt or a retry (at ``OutboxEntry/nextAttempt``).
    case pending = 0
    /// A 200–206 answer ended it.
    case delivered = 1
    /// No attempt is left (Sandbox's single attempt, or the last Production retry failed).
    case failed = 2
  }

  /// The outbox's order: commit order.
  public var sequence: Int64
  public var notification: ServerNotification
  public var state: State
  /// When the next attempt is due (virtual time); nil once delivered or failed.
  public var nextAttempt: Date?
  public var attempts: [DeliveryAttempt]
  /// The `notificationUUID`, fixed at the first attempt and kept for every retry.
  public var notificationUUID: String?
  /// The `signedPayload` as first sent, resent byte for byte by every retry.
  public var signedPayload: String?

  public init(
    sequence: Int64, notification: ServerNotification, state: State = .pending, nextAttempt: Date? = nil,
    attempts: [DeliveryAttempt] = [], notificationUUID: String? = nil, signedPayload: String? = nil
  ) {
    self.sequence = sequence
    self.notification = notification
    self.state = state
    self.nextAttempt = nextAttempt
    self.attempts = attempts
    self.notificationUUID = notificationUUID
    self.signedPayload = signedPayload
  }
}

/// One attempt to deliver a notification, as Get Notification History reports it.
public struct DeliveryAttempt: Sendable, Equatable, Codable {
  /// Apple's `sendAttemptResult` names.
  public enum Result: String, Sendable, Equatable, Codable, CaseIterable {
    case success = "SUCCESS"
    case timedOut = "TIMED_OUT"
    case tlsIssue = "TLS_ISSUE"
    case circularRedirect = "CIRCULAR_REDIRECT"
    case noResponse = "NO_RESPONSE"
    case socketIssue = "SOCKET_ISSUE"
    case unsupportedCharset = "UNSUPPORTED_CHARSET"
    case invalidResponse = "INVALID_RESPONSE"
    case prematureClose = "PREMATURE_CLOSE"
    case unsuccessfulHTTPResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    case other = "OTHER"
  }

  /// When it was made (virtual time): `attemptDate`.
  public var date: Date
  public var result: Result
  /// The receiver's HTTP status, when it answered.
  public var httpStatus: Int?
  /// Wall-clock time to the answer or the failure, in milliseconds (for the Server pane).
  public var milliseconds: Int?

  public init(date: Date, result: Result, httpStatus: Int? = nil, milliseconds: Int? = nil) {
    self.date = date
    self.result = result
    self.httpStatus = httpStatus
    self.milliseconds = milliseconds
  }
}
