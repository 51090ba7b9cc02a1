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
  case requestTestNotification
  case getTestNotificationStatus
  case getNotificationHistory
}
