/// The body of Get Notification History, every member as sent, checked by the handler.
struct NotificationHistoryRequest: Decodable {
  var startDate: JSONScalar?
  var endDate: JSONScalar?
  var notificationType: JSONScalar?
  var notificationSubtype: JSONScalar?
  var transactionId: JSONScalar?
  var onlyFailures: JSONScalar?
}
