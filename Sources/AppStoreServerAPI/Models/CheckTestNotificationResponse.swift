/// Get Test Notification Status's answer: the TEST notification as sent and each attempt.
struct CheckTestNotificationResponse: Encodable {
  var signedPayload: String
  var sendAttempts: [SendAttemptItem]
}
