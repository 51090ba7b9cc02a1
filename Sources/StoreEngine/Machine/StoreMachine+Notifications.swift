import Foundation

extension StoreMachine {
  /// Whether the app's server wants notifications from this store's environment.
  var sendsNotifications: Bool {
    guard let environment = environment.signer?.environment else { return false }
    return notificationURLs[environment] != nil
  }

  /// Queues a notification about transaction `id` (its JWS and its chain's renewal info are taken
  /// when the step ends, as they are then).
  mutating func notify(
    _ type: NotificationType, _ subtype: NotificationSubtype? = nil, about id: PaymentTransaction.ID?,
    consumptionRequestReason: String? = nil
  ) {
    guard sendsNotifications, let id else { return }
    step.notifications.append(
      ServerNotification(
        notificationType: type, subtype: subtype, transactionID: id, consumptionRequestReason: consumptionRequestReason,
        date: now))
  }

  /// Queues a notification with no transaction: TEST, or a mass extension's SUMMARY.
  mutating func notify(_ type: NotificationType, _ subtype: NotificationSubtype? = nil, summary: MassExtension? = nil) {
    guard sendsNotifications else { return }
    step.notifications.append(ServerNotification(notificationType: type, subtype: subtype, summary: summary, date: now))
  }

  /// Fills each queued notification with its transaction's JWS and its chain's renewal info and
  /// status as the step leaves them, and adds it to the step's ledger changes and events.
  mutating func finishNotifications() {
    guard !step.notifications.isEmpty else { return }
    for index in step.notifications.indices {
      var notification = step.notifications[index]
      notification.environment = environment.signer?.environment
      if let id = notification.transactionID, let transaction = transactions[id] {
        notification.account = transaction.account
        notification.originalTransactionID = transaction.originalID
        notification.signedTransactionInfo = transaction.signedTransaction
        if let record = subscriptionRecords[transaction.originalID] {
          notification.signedRenewalInfo = record.signedRenewalInfo
          notification.status = record.status.appleStatus
        }
      }
      step.notifications[index] = notification
      step.changes.append(.putNotification(notification))
      step.emit(.notificationQueued(notification))
    }
  }

  /// EXPIRED's subtype for why the subscription ended.
  static func expirySubtype(_ intent: RenewalInfo.ExpirationIntent?) -> NotificationSubtype? {
    switch intent {
    case .customerCancelled: .voluntary
    case .billingError: .billingRetry
    case .priceIncreaseNotConsented: .priceIncrease
    case .productNotAvailable: .productNotForSale
    default: nil
    }
  }
}
