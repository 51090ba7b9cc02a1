/// One notification of a ``NotificationHistoryResponse``: its payload as sent, and each attempt.
struct NotificationHistoryResponseItem: Encodable {
  var signedPayload: String
  var sendAttempts: [SendAttemptItem]
}
