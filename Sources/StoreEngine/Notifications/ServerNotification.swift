import Foundation

/// One App Store Server Notification V2 as the store decided to send it, in the step whose change
/// caused it: what its `data` (or `summary`) carries, as of that step. The app's server receives it
/// signed (``notificationType``, ``subtype``, a `notificationUUID`, `version` "2.0", `signedDate`),
/// from the outbox it is committed to with its cause.
public struct ServerNotification: Sendable, Equatable, Codable {
  public var notificationType: NotificationType
  public var subtype: NotificationSubtype?
  /// The signing environment of the step that queued it (`Sandbox` or `Production`): the one whose
  /// notification URL it goes to. Nil only in outboxes written before it was kept.
  public var environment: String?
  /// The customer (sandbox account) it is about; nil for TEST and a mass extension's summary.
  public var account: String?
  /// The transaction whose JWS is `signedTransactionInfo`.
  public var transactionID: PaymentTransaction.ID?
  /// The chain, for ordering: notifications of one original transaction go out in order.
  public var originalTransactionID: PaymentTransaction.ID?
  public var signedTransactionInfo: String?
  public var signedRenewalInfo: String?
  /// The subscription's status, Apple's numbers: 1 active, 2 expired, 3 billing retry, 4 grace, 5 revoked.
  public var status: Int?
  /// CONSUMPTION_REQUEST only: `UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE`, `UNSATISFIED_WITH_PURCHASE`, `LEGAL`, `OTHER`.
  public var consumptionRequestReason: String?
  /// RENEWAL_EXTENSION / SUMMARY only.
  public var summary: MassExtension?
  /// When it happened (virtual time): the payload's `signedDate`.
  public var date: Date
  /// TEST only: the `testNotificationToken` Request a Test Notification answered with.
  public var testNotificationToken: String?
  /// RESCIND_CONSENT only: the customer's app transaction, signed when consent was withdrawn
  /// (`appData.signedAppTransactionInfo`).
  public var signedAppTransactionInfo: String?

  public init(
    notificationType: NotificationType, subtype: NotificationSubtype? = nil, account: String? = nil,
    transactionID: PaymentTransaction.ID? = nil, originalTransactionID: PaymentTransaction.ID? = nil,
    signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil, status: Int? = nil,
    consumptionRequestReason: String? = nil, summary: MassExtension? = nil, date: Date
  ) {
    self.notificationType = notificationType
    self.subtype = subtype
    self.account = account
    self.transactionID = transactionID
    self.originalTransactionID = originalTransactionID
    self.signedTransactionInfo = signedTransactionInfo
    self.signedRenewalInfo = signedRenewalInfo
    self.status = status
    self.consumptionRequestReason = consumptionRequestReason
    self.summary = summary
    self.date = date
  }
}

extension SubscriptionStatus {
  /// Apple's `status` number (App Store Server API `Status`).
  public var appleStatus: Int {
    switch self {
    case .subscribed: 1
    case .expired: 2
    case .inBillingRetry: 3
    case .inGracePeriod: 4
    case .revoked: 5
    }
  }
}
