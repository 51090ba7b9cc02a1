/// One notification of a ``NotificationHistoryResponse``.
struct NotificationHistoryResponseItem: Encodable {
  var signedPayload: String
}
