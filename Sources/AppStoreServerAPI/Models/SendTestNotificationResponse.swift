/// Request a Test Notification's answer.
struct SendTestNotificationResponse: Encodable {
  var testNotificationToken: String
}
