import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `POST /inApps/v1/notifications/test`: queues a TEST notification for the process that serves
  /// to deliver, and answers its token. 4040007 when this environment has no notification URL.
  func requestTestNotification() throws(APIError) -> APIResponse {
    guard try reader.notificationURL() != nil else { throw .serverNotificationURLNotFound }
    guard let perform else { return Self.notFound }
    let token = makeToken()
    let step: StoreStep
    do {
      step = try perform(.requestTestNotification(token: token))
    } catch .ledger(.busy) {
      throw .generalInternalRetryable
    } catch {
      throw .generalInternal
    }
    // The store queues only for its own signing environment: a server of the other one has no URL there.
    let queued = step.events.contains {
      if case .notificationQueued(let notification) = $0 { return notification.testNotificationToken == token }
      return false
    }
    guard queued else { throw .serverNotificationURLNotFound }
    return try ResponseEncoding.response(SendTestNotificationResponse(testNotificationToken: token))
  }

  /// `GET /inApps/v1/notifications/test/{testNotificationToken}`: the TEST notification with that
  /// token as sent, and its attempts; 4040008 until its first attempt (and for unknown tokens).
  func testNotificationStatus(_ token: String) throws(APIError) -> APIResponse {
    guard !token.isEmpty, token.utf8.count <= 128,
      token.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "-" || $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) })
    else { throw .invalidTestNotificationToken }
    // Tokens are made fresh per request, so the first TEST with it is the only one.
    let found = try reader.sentNotifications(limit: 1) { $0.notification.testNotificationToken == token }
    guard let sent = found.first else { throw .testNotificationNotFound }
    return try ResponseEncoding.response(CheckTestNotificationResponse(signedPayload: sent.signedPayload, sendAttempts: sent.sendAttempts))
  }

  /// `POST /inApps/v1/notifications/history`: the notifications sent whose virtual date is in
  /// [`startDate`, `endDate`), oldest first, 20 a page, filtered as the body asks.
  func notificationHistory(query: QueryParameters, body: Data) throws(APIError) -> APIResponse {
    var position: Int64 = 0
    if let text = try query.single("paginationToken", invalid: .invalidPaginationToken) {
      guard let token = PageToken(text, kind: .notifications), let sequence = Int64(exactly: token.id) else {
        throw .invalidPaginationToken
      }
      position = sequence
    }
    guard let request = try? JSONDecoder().decode(NotificationHistoryRequest.self, from: body) else { throw .generalBadRequest }
    guard let start = request.startDate?.integer, start >= 0 else { throw .invalidStartDate }
    guard let end = request.endDate?.integer, end >= 0 else { throw .invalidEndDate }
    guard start < end else { throw .startDateAfterEndDate }
    let retention: Int64 = environment == .sandbox ? 30 : 180
    // The notifications are dated on the store's virtual clock, so the window is measured on it.
    let virtualNow: Date
    if let virtualClock { virtualNow = virtualClock() } else { virtualNow = try reader.virtualNow() ?? now() }
    if start < SignedPayloads.milliseconds(virtualNow) - retention * 86_400_000 { throw .startDateTooFarInPast }
    if request.notificationType != nil, request.transactionId != nil { throw .multipleFiltersSupplied }
    var type: String?
    var subtype: String?
    if let value = request.notificationType {
      guard case .string(let name) = value, Self.notificationTypes.contains(name) else { throw .invalidNotificationType }
      type = name
    }
    if let value = request.notificationSubtype {
      guard request.notificationType != nil, case .string(let name) = value, Self.subtypes.contains(name) else {
        throw .invalidNotificationType
      }
      subtype = name
    }
    var account: String?
    if let transaction = request.transactionId {
      guard case .string(let text) = transaction else { throw .invalidTransactionID }
      account = try reader.customer(text).account
    }
    var onlyFailures = false
    if let value = request.onlyFailures {
      guard case .bool(let flag) = value else { throw .generalBadRequest }
      onlyFailures = flag
    }
    // One more than a page says whether there is more.
    let matching = try reader.sentNotifications(after: position, limit: Page.size + 1) { entry in
      let notification = entry.notification
      let date = SignedPayloads.milliseconds(notification.date)
      return date >= start && date < end
        && (type == nil || notification.notificationType.rawValue == type)
        && (subtype == nil || notification.subtype?.rawValue == subtype)
        && (account == nil || notification.account == account)
        && (!onlyFailures || entry.state != .delivered)
    }
    let page = matching.prefix(Page.size)
    let next = page.last.map {
      PageToken(kind: .notifications, descending: false, date: SignedPayloads.milliseconds($0.entry.notification.date), id: UInt64(clamping: $0.entry.sequence)).text
    }
    return try ResponseEncoding.response(
      NotificationHistoryResponse(
        paginationToken: matching.count > Page.size ? next : nil, hasMore: matching.count > Page.size,
        notificationHistory: page.map { NotificationHistoryResponseItem(signedPayload: $0.signedPayload, sendAttempts: $0.sendAttempts) }))
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
