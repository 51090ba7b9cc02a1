/// App Store Server Notifications V2 `notificationType` values a Storefront event can cause.
public enum NotificationType: String, Sendable, Equatable, Codable, CaseIterable {
  case subscribed = "SUBSCRIBED"
  case didRenew = "DID_RENEW"
  case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
  case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
  case offerRedeemed = "OFFER_REDEEMED"
  case didFailToRenew = "DID_FAIL_TO_RENEW"
  case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
  case expired = "EXPIRED"
  case priceIncrease = "PRICE_INCREASE"
  case refund = "REFUND"
  case refundDeclined = "REFUND_DECLINED"
  case refundReversed = "REFUND_REVERSED"
  case consumptionRequest = "CONSUMPTION_REQUEST"
  case oneTimeCharge = "ONE_TIME_CHARGE"
  case renewalExtended = "RENEWAL_EXTENDED"
  case renewalExtension = "RENEWAL_EXTENSION"
  case revoke = "REVOKE"
  case test = "TEST"
  /// A parent or guardian withdrew consent for the child's use of the app (age assurance,
  /// Notifications 2.19): the payload carries `appData` with the signed app transaction, no `data`.
  case rescindConsent = "RESCIND_CONSENT"
}

/// App Store Server Notifications V2 `subtype` values.
public enum NotificationSubtype: String, Sendable, Equatable, Codable, CaseIterable {
  case initialBuy = "INITIAL_BUY"
  case resubscribe = "RESUBSCRIBE"
  case downgrade = "DOWNGRADE"
  case upgrade = "UPGRADE"
  case autoRenewEnabled = "AUTO_RENEW_ENABLED"
  case autoRenewDisabled = "AUTO_RENEW_DISABLED"
  case voluntary = "VOLUNTARY"
  case billingRetry = "BILLING_RETRY"
  case priceIncrease = "PRICE_INCREASE"
  case gracePeriod = "GRACE_PERIOD"
  case pending = "PENDING"
  case accepted = "ACCEPTED"
  case billingRecovery = "BILLING_RECOVERY"
  case productNotForSale = "PRODUCT_NOT_FOR_SALE"
  case summary = "SUMMARY"
  case failure = "FAILURE"
}
