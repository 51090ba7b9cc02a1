import Foundation

/// One commitment of a subscription billed on the `MONTHLY` plan (iOS 26.4): twelve monthly
/// payments of the plan's price for one year of service. Each paid period's transaction carries
/// the commitment it belongs to and its number in it (Apple's `TransactionCommitmentInfo`,
/// StoreKit's `Transaction.CommitmentInfo`); the chain's record carries the current one.
public struct Commitment: Sendable, Equatable, Codable {
  /// When the commitment's first billing period began: period `n` ends `n` months after it.
  public var startDate: Date
  /// This period's number in the commitment, 1 through ``totalBillingPeriods``.
  public var billingPeriodNumber: Int
  /// How many monthly payments make the commitment (12).
  public var totalBillingPeriods: Int
  /// When the commitment ends: the end of its last billing period.
  public var expiresDate: Date
  /// What the whole commitment costs (the plan's `commitmentDisplayPrice`), in the storefront's currency.
  public var price: Decimal

  /// Apple's commitment: "12 monthly payments".
  public static let monthsInCommitment = 12

  public init(startDate: Date, billingPeriodNumber: Int, totalBillingPeriods: Int, expiresDate: Date, price: Decimal) {
    self.startDate = startDate
    self.billingPeriodNumber = billingPeriodNumber
    self.totalBillingPeriods = totalBillingPeriods
    self.expiresDate = expiresDate
    self.price = price
  }

  /// True while payments of the commitment are still to come (a period before the last one).
  public var hasPaymentsLeft: Bool { billingPeriodNumber < totalBillingPeriods }
}

/// What happens when a chain's commitment ends (Apple's `RenewalCommitmentInfo`, StoreKit's
/// `RenewalInfo.CommitmentInfo`): whether it renews, into which product and plan, when and at what price.
public struct RenewalCommitment: Sendable, Equatable, Codable {
  /// The product the next commitment (or period) renews into (`commitmentAutoRenewProductId`).
  public var autoRenewProductID: Product.ID
  /// Whether the commitment renews at its end (`commitmentAutoRenewStatus` 1).
  public var willAutoRenew: Bool
  /// The plan it renews on (`commitmentRenewalBillingPlanType`).
  public var billingPlanType: String
  /// When the commitment ends and the next begins (`commitmentRenewalDate`).
  public var renewalDate: Date
  /// What the next commitment (or up-front period) costs (`commitmentRenewalPrice`).
  public var renewalPrice: Decimal

  public init(autoRenewProductID: Product.ID, willAutoRenew: Bool, billingPlanType: String, renewalDate: Date, renewalPrice: Decimal) {
    self.autoRenewProductID = autoRenewProductID
    self.willAutoRenew = willAutoRenew
    self.billingPlanType = billingPlanType
    self.renewalDate = renewalDate
    self.renewalPrice = renewalPrice
  }
}

/// `TransactionCommitmentInfo` of the App Store Server API (1.21), as Apple's libraries name its fields.
public struct TransactionCommitmentInfo: Sendable, Equatable, Codable {
  public var billingPeriodNumber: Int?
  /// Milliseconds since 1970.
  public var commitmentExpiresDate: Int64?
  /// Milliunits of the transaction's currency.
  public var commitmentPrice: Int64?
  public var totalBillingPeriods: Int?

  public init(billingPeriodNumber: Int?, commitmentExpiresDate: Int64?, commitmentPrice: Int64?, totalBillingPeriods: Int?) {
    self.billingPeriodNumber = billingPeriodNumber
    self.commitmentExpiresDate = commitmentExpiresDate
    self.commitmentPrice = commitmentPrice
    self.totalBillingPeriods = totalBillingPeriods
  }
}

/// `RenewalCommitmentInfo` of the App Store Server API (1.21), as Apple's libraries name its fields.
public struct RenewalCommitmentInfo: Sendable, Equatable, Codable {
  public var commitmentAutoRenewProductId: String?
  /// 1 renews, 0 does not.
  public var commitmentAutoRenewStatus: Int?
  /// `BILLED_UPFRONT` or `MONTHLY`.
  public var commitmentRenewalBillingPlanType: String?
  /// Milliseconds since 1970.
  public var commitmentRenewalDate: Int64?
  /// Milliunits of the renewal info's currency.
  public var commitmentRenewalPrice: Int64?

  public init(
    commitmentAutoRenewProductId: String?, commitmentAutoRenewStatus: Int?, commitmentRenewalBillingPlanType: String?,
    commitmentRenewalDate: Int64?, commitmentRenewalPrice: Int64?
  ) {
    self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
    self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
    self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
    self.commitmentRenewalDate = commitmentRenewalDate
    self.commitmentRenewalPrice = commitmentRenewalPrice
  }
}
