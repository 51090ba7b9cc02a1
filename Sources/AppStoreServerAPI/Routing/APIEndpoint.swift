/// The App Store Server API endpoints this module answers (names as Apple's documentation titles them).
public enum APIEndpoint: String, Sendable, Hashable, CaseIterable {
  case getTransactionInfo
  case getAppTransactionInfo
  case getTransactionHistory
  case getTransactionHistoryV1
  case getAllSubscriptionStatuses
  case getRefundHistory
  case lookUpOrderID
  case sendConsumptionInformation
  case extendSubscriptionRenewalDate
  /// Extend Subscription Renewal Dates for All Active Subscribers.
  case massExtendRenewalDate
  /// Get Status of Subscription Renewal Date Extensions.
  case getMassExtensionStatus
  case setAppAccountToken
  case requestTestNotification
  case getTestNotificationStatus
  case getNotificationHistory
}
