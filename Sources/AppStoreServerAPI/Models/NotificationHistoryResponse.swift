/// Get Notification History's answer: up to 20 sent notifications, oldest first.
struct NotificationHistoryResponse: Encodable {
  var paginationToken: String?
  var hasMore: Bool
  var notificationHistory: [NotificationHistoryResponseItem]
}
