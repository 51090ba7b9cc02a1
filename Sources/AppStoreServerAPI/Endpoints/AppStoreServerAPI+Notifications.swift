import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `GET /inApps/v1/notifications/test/{testNotificationToken}`: no test notification was ever sent
  /// (no notification URL is configured yet), so a well-formed token is not found.
  func testNotificationStatus(_ token: String) throws(APIError) -> APIResponse {
    guard !token.isEmpty, token.utf8.count <= 128,
      token.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "-" || $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) })
    else { throw .invalidTestNotificationToken }
    throw .testNotificationNotFound
  }

  /// `POST /inApps/v1/notifications/history`: the body checked as Apple documents it; the history is
  /// empty until notifications are sent.
  func notificationHistory(query: QueryParameters, body: Data) throws(APIError) -> APIResponse {
    // This server has issued no pagination token, so any one is invalid.
    if try query.single("paginationToken", invalid: .invalidPaginationToken) != nil { throw .invalidPaginationToken }
    guard let request = try? JSONDecoder().decode(NotificationHistoryRequest.self, from: body) else { throw .generalBadRequest }
    guard let start = request.startDate?.integer, start >= 0 else { throw .invalidStartDate }
    guard let end = request.endDate?.integer, end >= 0 else { throw .invalidEndDate }
    guard start < end else { throw .startDateAfterEndDate }
    let retention: Int64 = environment == .sandbox ? 30 : 180
    if start < SignedPayloads.milliseconds(now()) - retention * 86_400_000 { throw .startDateTooFarInPast }
    if request.notificationType != nil, request.transactionId != nil { throw .multipleFiltersSupplied }
    if let type = request.notificationType {
      guard case .string(let name) = type, Self.notificationTypes.contains(name) else { throw .invalidNotificationType }
    }
    if let subtype = request.notificationSubtype {
      guard request.notificationType != nil, case .string(let name) = subtype, Self.subtypes.contains(name) else {
        throw .invalidNotificationType
      }
    }
    if let transaction = request.transactionId {
      guard case .string(let text) = transaction else { throw .invalidTransactionID }
      _ = try reader.customer(text)
    }
    if let onlyFailures = request.onlyFailures {
      guard case .bool = onlyFailures else { throw .generalBadRequest }
    }
    return try ResponseEncoding.response(NotificationHistoryResponse(paginationToken: nil, hasMore: false, notificationHistory: []))
  }

  static let notificationTypes: Set<String> = [
    "SUBSCRIBED", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "OFFER_REDEEMED", "DID_RENEW", "EXPIRED",
    "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED", "CONSUMPTION_REQUEST",
    "RENEWAL_EXTENDED", "REVOKE", "TEST", "RENEWAL_EXTENSION", "REFUND_REVERSED", "EXTERNAL_PURCHASE_TOKEN",
    "ONE_TIME_CHARGE", "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE",
  ]
  static let subtypes: Set<String> = [
    "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED", "VOLUNTARY",
    "BILLING_RETRY", "PRICE_INCREASE", "GRACE_PERIOD", "PENDING", "ACCEPTED", "BILLING_RECOVERY",
    "PRODUCT_NOT_FOR_SALE", "SUMMARY", "FAILURE", "UNREPORTED",
  ]
}
