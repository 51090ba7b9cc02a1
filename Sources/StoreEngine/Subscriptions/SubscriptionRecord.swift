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
  /// The line-item id of the current period (a new one for every purchase and renewal).
  public var webOrderLineItemID: UInt64
  // The fields below are optional so that records written before they existed still decode.
  /// The customer's answer to a price increase: pending until answered, agreed once accepted.
  public var priceIncreaseStatus: RenewalInfo.PriceIncreaseStatus?
  /// The renewal price a price increase moves to (pending or agreed), replacing the catalog's.
  public var increasedPrice: Decimal?
  /// The offer the next renewal bills, while a pay-as-you-go offer has periods left.
  public var renewalOffer: RenewalOffer?
  /// The first purchase's date: kept across lapses, as the chain's first transaction may have left
  /// the working set.
  public var originalPurchaseDate: Date?
  /// Start of the latest uninterrupted run (`recentSubscriptionStartDate`); restarts on a resubscribe.
  public var recentStartDate: Date?
  /// The renewal info as it is now, signed whenever the record changes (nil without a signer).
  public var signedRenewalInfo: String?
  /// Renewal-date extensions granted through the App Store Server API, oldest first.
  public var renewalExtensions: [RenewalExtension]?
  /// The current period's transaction (the chain's newest purchase or renewal), so a reader finds a
  /// chain's latest transaction by id, without its history; nil in records written before it existed.
  public var currentTransactionID: PaymentTransaction.ID?
  /// The plan the chain renews on once its commitment (if any) is over (`renewalBillingPlanType`):
  /// `MONTHLY`, or nil for the default plan.
  public var billingPlanType: String?
  /// The commitment the current period belongs to, while the chain is billed monthly.
  public var commitment: Commitment?

  public init(
    originalID: PaymentTransaction.ID, account: String, groupID: String, productID: Product.ID,
    renewalProductID: Product.ID, autoRenew: Bool, status: SubscriptionStatus, expiresDate: Date, renewalCount: Int,
    gracePeriodExpiresDate: Date?, expirationIntent: RenewalInfo.ExpirationIntent?, priceIncreasePending: Bool,
    webOrderLineItemID: UInt64, priceIncreaseStatus: RenewalInfo.PriceIncreaseStatus? = nil,
    increasedPrice: Decimal? = nil, renewalOffer: RenewalOffer? = nil, originalPurchaseDate: Date? = nil,
    recentStartDate: Date? = nil, signedRenewalInfo: String? = nil
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
    self.priceIncreaseStatus = priceIncreaseStatus
    self.increasedPrice = increasedPrice
    self.renewalOffer = renewalOffer
    self.originalPurchaseDate = originalPurchaseDate
    self.recentStartDate = recentStartDate
    self.signedRenewalInfo = signedRenewalInfo
  }
}
