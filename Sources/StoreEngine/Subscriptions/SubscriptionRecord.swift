import Foundation

/// The renewal state of one auto-renewable subscription chain (keyed by its original transaction).
///
/// Stored in the ledger beside the transactions; the chain's transactions carry the dates, this
/// carries what the next renewal will do.
public struct SubscriptionRecord: Sendable, Equatable, Codable {
  public var originalID: PaymentTransaction.ID
  public var account: String
  public var groupID: String
  /// The product of the current period.
  public var productID: Product.ID
  /// The product the next renewal will bill (differs after a downgrade or crossgrade).
  public var renewalProductID: Product.ID
  public var autoRenew: Bool
  public var status: SubscriptionStatus
  /// End of the current period (or of the grace window while in grace).
  public var expiresDate: Date
  /// Renewals so far (the sandbox preset stops renewing after 12).
  public var renewalCount: Int
  public var gracePeriodExpiresDate: Date?
  /// Why it stopped renewing (stored as Apple's number: 1 customer cancelled, 2 billing error, …).
  public var expirationIntent: RenewalInfo.ExpirationIntent?
  /// A price increase waits for the customer's consent.
  public var priceIncreasePending: Bool
  /// The line-item id shared by purchase and renewals.
  public var webOrderLineItemID: UInt64

  public init(
    originalID: PaymentTransaction.ID, account: String, groupID: String, productID: Product.ID,
    renewalProductID: Product.ID, autoRenew: Bool, status: SubscriptionStatus, expiresDate: Date, renewalCount: Int,
    gracePeriodExpiresDate: Date?, expirationIntent: RenewalInfo.ExpirationIntent?, priceIncreasePending: Bool,
    webOrderLineItemID: UInt64
  ) {
    self.originalID = originalID
    self.account = account
    self.groupID = groupID
    self.productID = productID
    self.renewalProductID = renewalProductID
    self.autoRenew = autoRenew
    self.status = status
    self.expiresDate = expiresDate
    self.renewalCount = renewalCount
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
    self.expirationIntent = expirationIntent
    self.priceIncreasePending = priceIncreasePending
    self.webOrderLineItemID = webOrderLineItemID
  }
}
