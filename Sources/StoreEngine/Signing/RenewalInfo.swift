import Foundation

/// The renewal state of an auto-renewable subscription, in the engine's types; becomes a
/// ``JWSRenewalInfoPayload`` through ``SignedPayloads/renewalInfo(_:context:)``.
public struct RenewalInfo: Sendable, Equatable, Codable {
  /// Why a subscription expired (`expirationIntent`).
  public enum ExpirationIntent: Int, Sendable, Equatable, Codable, CaseIterable {
    case customerCancelled = 1
    case billingError = 2
    case priceIncreaseNotConsented = 3
    case productNotAvailable = 4
    case other = 5
  }

  /// The user's answer to a price increase (`priceIncreaseStatus`).
  public enum PriceIncreaseStatus: Int, Sendable, Equatable, Codable {
    case notResponded = 0
    case consented = 1
  }

  public var originalTransactionID: PaymentTransaction.ID
  /// The product the subscription renews into (differs from `productID` after a downgrade/crossgrade).
  public var autoRenewProductID: Product.ID
  public var productID: Product.ID
  /// True when the subscription will renew (`autoRenewStatus` 1).
  public var autoRenewStatus: Bool
  public var expirationIntent: ExpirationIntent?
  public var isInBillingRetryPeriod: Bool
  public var gracePeriodExpiresDate: Date?
  public var renewalDate: Date
  /// Start of the latest uninterrupted run of the subscription.
  public var recentSubscriptionStartDate: Date
  public var currency: String
  /// The price of the next renewal in `currency`.
  public var renewalPrice: Decimal
  /// The offer the next renewal will use, if any.
  public var offerType: SubscriptionOffer.Kind?
  public var offerID: String?
  public var offerPaymentMode: SubscriptionOffer.PaymentMode?
  public var priceIncreaseStatus: PriceIncreaseStatus?
  public var appAccountToken: String?
  /// Win-back offers the lapsed customer may redeem (`eligibleWinBackOfferIds`).
  public var eligibleWinBackOfferIDs: [String]?
  /// The whole duration of the offer the next renewal uses.
  public var offerPeriod: SubscriptionPeriod?
  /// The plan the subscription renews on (`renewalBillingPlanType`), for a product with billing plans.
  public var renewalBillingPlanType: String?
  /// For a chain in a monthly commitment: what happens at the commitment's end.
  public var commitment: RenewalCommitment?

  public init(
    originalTransactionID: PaymentTransaction.ID, autoRenewProductID: Product.ID, productID: Product.ID,
    autoRenewStatus: Bool = true, expirationIntent: ExpirationIntent? = nil,
    isInBillingRetryPeriod: Bool = false, gracePeriodExpiresDate: Date? = nil, renewalDate: Date,
    recentSubscriptionStartDate: Date, currency: String, renewalPrice: Decimal,
    offerType: SubscriptionOffer.Kind? = nil, offerID: String? = nil,
    offerPaymentMode: SubscriptionOffer.PaymentMode? = nil,
    priceIncreaseStatus: PriceIncreaseStatus? = nil, appAccountToken: String? = nil,
    eligibleWinBackOfferIDs: [String]? = nil, offerPeriod: SubscriptionPeriod? = nil
  ) {
    self.originalTransactionID = originalTransactionID
    self.autoRenewProductID = autoRenewProductID
    self.productID = productID
    self.autoRenewStatus = autoRenewStatus
    self.expirationIntent = expirationIntent
    self.isInBillingRetryPeriod = isInBillingRetryPeriod
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
    self.renewalDate = renewalDate
    self.recentSubscriptionStartDate = recentSubscriptionStartDate
    self.currency = currency
    self.renewalPrice = renewalPrice
    self.offerType = offerType
    self.offerID = offerID
    self.offerPaymentMode = offerPaymentMode
    self.priceIncreaseStatus = priceIncreaseStatus
    self.appAccountToken = appAccountToken
    self.eligibleWinBackOfferIDs = eligibleWinBackOfferIDs
    self.offerPeriod = offerPeriod
  }

  /// The renewal info of an auto-renewable `transaction` that will renew at its `expiresDate`
  /// into `autoRenewProductID` (the same product unless the user changed it) at `renewalPrice`.
  ///
  /// `recentSubscriptionStartDate` is the original purchase date; the engine overrides it after a
  /// lapse. Nil when the transaction has no expiry date.
  public init?(
    renewing transaction: PaymentTransaction, renewalPrice: Decimal, autoRenewProductID: Product.ID? = nil
  ) {
    guard transaction.productKind == .autoRenewableSubscription, let renewalDate = transaction.expiresDate else {
      return nil
    }
    self.init(
      originalTransactionID: transaction.originalID, autoRenewProductID: autoRenewProductID ?? transaction.productID,
      productID: transaction.productID, renewalDate: renewalDate,
      recentSubscriptionStartDate: transaction.originalPurchaseDate, currency: transaction.currency,
      renewalPrice: renewalPrice, appAccountToken: transaction.appAccountToken)
  }
}
