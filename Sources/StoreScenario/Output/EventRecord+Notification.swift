import Foundation
import StoreEngine

extension EventRecord {
  /// `notificationQueued`: an App Store Server Notification committed to the outbox for the app's server.
  struct NotificationQueued: Sendable, Equatable, Codable {
    var notificationType: String
    var subtype: String?
    var transactionID: String?
    var originalTransactionID: String?
    var consumptionRequestReason: String?

    enum CodingKeys: String, CodingKey {
      case notificationType, subtype, consumptionRequestReason
      case transactionID = "transactionId"
      case originalTransactionID = "originalTransactionId"
    }

    init(_ notification: ServerNotification) {
      notificationType = notification.notificationType.rawValue
      subtype = notification.subtype?.rawValue
      transactionID = notification.transactionID?.description
      originalTransactionID = notification.originalTransactionID?.description
      consumptionRequestReason = notification.consumptionRequestReason
    }
  }
}
