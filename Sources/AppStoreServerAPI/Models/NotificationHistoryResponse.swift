/// Get Notification History's answer. Empty until notifications are sent (the next issue).
struct NotificationHistoryResponse: Encodable {
  var paginationToken: String?
  var hasMore: Bool
  var notificationHistory: [NotificationHistoryResponseItem]
}
