/// The App Store Server API endpoints this module answers (names as Apple's documentation titles them).
public enum APIEndpoint: String, Sendable, Hashable, CaseIterable {
  case getTransactionInfo
  case getAppTransactionInfo
  case getTransactionHistory
  case getTransactionHistoryV1
  case getAllSubscriptionStatuses
  case getRefundHistory
  /// Get Refund History V1 (deprecated): up to 50 refunds, no paging.
  case getRefundHistoryV1
  case lookUpOrderID
  case sendConsumptionInformation
  /// Send Consumption Information V1 (deprecated): integer-coded fields.
  case sendConsumptionInformationV1
  case extendSubscriptionRenewalDate
  /// Extend Subscription Renewal Dates for All Active Subscribers.
  case massExtendRenewalDate
  /// Get Status of Subscription Renewal Date Extensions.
  case getMassExtensionStatus
  case setAppAccountToken
  case finishTransaction
  case requestTestNotification
  case getTestNotificationStatus
  case getNotificationHistory
  // Retention Messaging API (`/inApps/v1/messaging/…`).
  case uploadImage
  case deleteImage
  case getImageList
  case uploadMessage
  case deleteMessage
  case getMessageList
  case configureDefaultMessage
  case deleteDefaultMessage
  case getDefaultMessage
  case configureRealtimeURL
  case deleteRealtimeURL
  case getRealtimeURL
  case initiatePerformanceTest
  case getPerformanceTestResults
}
