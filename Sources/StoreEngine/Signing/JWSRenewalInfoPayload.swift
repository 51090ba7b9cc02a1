import Foundation

/// The payload of a signed renewal info, with Apple's field names and JSON types
/// (`JWSRenewalInfoDecodedPayload` in the App Store Server API).
public struct JWSRenewalInfoPayload: Sendable, Equatable, Codable {
  public var originalTransactionId: String
  public var autoRenewProductId: String
  public var productId: String
  /// 1 when the subscription will renew, 0 when the user turned renewal off.
  public var autoRenewStatus: Int
  /// 1 customer cancelled, 2 billing error, 3 no consent to a price increase, 4 product not
  /// available, 5 other. Present only once the subscription has expired or will not renew.
  public var expirationIntent: Int?
  public var isInBillingRetryPeriod: Bool
  /// 0 not responded, 1 consented.
  public var priceIncreaseStatus: Int?
  public var gracePeriodExpiresDate: Int64?
  public var offerType: Int?
  public var offerIdentifier: String?
  public var offerDiscountType: String?
  public var signedDate: Int64
  public var environment: String
  public var recentSubscriptionStartDate: Int64
  public var renewalDate: Int64
  public var currency: String
  /// Milliunits of `currency`.
  public var renewalPrice: Int64
  public var appAccountToken: String?
  /// Win-back offers the customer may redeem (only once the subscription has lapsed).
  public var eligibleWinBackOfferIds: [String]?
  /// ISO 8601 duration of the offer the next renewal uses (`P2M` for two monthly periods).
  public var offerPeriod: String?
  /// `BILLED_UPFRONT` or `MONTHLY` (API 1.21), for a subscription whose catalog has billing plans.
  /// Not an initializer parameter: only ``SignedPayloads`` sets it.
  public var renewalBillingPlanType: String? = nil
  /// The commitment's renewal (API 1.21), for a chain billed monthly with a 12-month commitment.
  public var commitmentInfo: RenewalCommitmentInfo? = nil

  public init(
    originalTransactionId: String, autoRenewProductId: String, productId: String, autoRenewStatus: Int,
    expirationIntent: Int? = nil, isInBillingRetryPeriod: Bool = false, priceIncreaseStatus: Int? = nil,
    gracePeriodExpiresDate: Int64? = nil, offerType: Int? = nil, offerIdentifier: String? = nil,
    offerDiscountType: String? = nil, signedDate: Int64, environment: String,
    recentSubscriptionStartDate: Int64, renewalDate: Int64, currency: String, renewalPrice: Int64,
    appAccountToken: String? = nil, eligibleWinBackOfferIds: [String]? = nil, offerPeriod: String? = nil
  ) {
    self.originalTransactionId = originalTransactionId
    self.autoRenewProductId = autoRenewProductId
    self.productId = productId
    self.autoRenewStatus = autoRenewStatus
    self.expirationIntent = expirationIntent
    self.isInBillingRetryPeriod = isInBillingRetryPeriod
    self.priceIncreaseStatus = priceIncreaseStatus
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
    self.offerType = offerType
    self.offerIdentifier = offerIdentifier
    self.offerDiscountType = offerDiscountType
    self.signedDate = signedDate
    self.environment = environment
    self.recentSubscriptionStartDate = recentSubscriptionStartDate
    self.renewalDate = renewalDate
    self.currency = currency
    self.renewalPrice = renewalPrice
    self.appAccountToken = appAccountToken
    self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
    self.offerPeriod = offerPeriod
  }
}
