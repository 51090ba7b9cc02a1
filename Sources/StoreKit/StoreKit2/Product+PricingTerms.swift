import Foundation
internal import StoreEngine
internal import StoreScenario

// Monthly subscriptions with a 12-month commitment (iOS 26.4; DECISIONS §43).

extension Product.SubscriptionInfo {
  /// How a subscription is billed: up front once a period, or monthly for a 12-month commitment.
  public struct BillingPlanType: RawRepresentable, Equatable, Hashable, Sendable {
    /// Apple's server name (`BILLED_UPFRONT`, `MONTHLY`).
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Billed once per subscription period: every subscription's default plan.
    public static let upFront = BillingPlanType(rawValue: StoreEngine.BillingPlan.upFront)
    /// Twelve monthly payments for a one-year commitment.
    public static let monthly = BillingPlanType(rawValue: StoreEngine.BillingPlan.monthly)
  }

  /// What a subscription costs on one billing plan, and the offers of that plan.
  public struct PricingTerms: Equatable, Hashable, Sendable {
    public let billingPlanType: BillingPlanType
    /// The introductory, promotional and win-back offers available on this plan.
    public let subscriptionOffers: [Product.SubscriptionOffer]
    /// What each billing period charges (the month's payment on `.monthly`).
    public let billingPrice: Decimal
    /// ``billingPrice`` formatted for the storefront.
    public let billingDisplayPrice: String

    init(_ plan: StoreEngine.BillingPlan, info: StoreEngine.SubscriptionInfo, currency: String, locale: String) {
      billingPlanType = BillingPlanType(rawValue: plan.type)
      let offers = info.introductoryOffers + info.promotionalOffers + info.winBackOffers
      subscriptionOffers = offers.filter { ($0.billingPlanType ?? StoreEngine.BillingPlan.upFront) == plan.type }
        .map { Product.SubscriptionOffer($0, currency: currency, locale: locale) }
      billingPrice = Money.rounded(plan.price, currencyCode: currency)
      billingDisplayPrice = PriceFormatter.string(for: plan.price, currencyCode: currency, locale: locale)
    }

    /// One entry per plan the subscription is sold on: the up-front plan always (at the catalog's
    /// up-front plan price, else the product's price), the monthly plan when the catalog enables it.
    static func all(of info: StoreEngine.SubscriptionInfo, price: Decimal, currency: String, locale: String) -> [PricingTerms] {
      let enabled = info.billingPlans.filter(\.isEnabled)
      let upFront =
        enabled.first { $0.type == StoreEngine.BillingPlan.upFront }
        ?? StoreEngine.BillingPlan(type: StoreEngine.BillingPlan.upFront, price: price, commitmentPrice: price, isEnabled: true)
      let monthly = enabled.first { $0.type == StoreEngine.BillingPlan.monthly }
      return ([upFront] + (monthly.map { [$0] } ?? [])).map { PricingTerms($0, info: info, currency: currency, locale: locale) }
    }
  }
}

extension Transaction {
  /// The commitment a monthly-plan transaction pays part of (`TransactionCommitmentInfo`).
  public struct CommitmentInfo: Equatable, Hashable, Sendable {
    /// When the commitment ends.
    public let expirationDate: Date
    /// This payment's number in the commitment (1 through ``totalBillingPeriods``).
    public let billingPeriodNumber: UInt64
    /// How many payments make the commitment (12).
    public let totalBillingPeriods: UInt64
    /// What the whole commitment costs.
    public let price: Decimal

    init?(_ signed: TransactionCommitmentInfo?, fallback: StoreEngine.Commitment?) {
      if let signed, let number = signed.billingPeriodNumber, let total = signed.totalBillingPeriods,
        let expires = signed.commitmentExpiresDate, let price = signed.commitmentPrice
      {
        expirationDate = SignedPayloads.date(milliseconds: expires)
        billingPeriodNumber = UInt64(max(0, number))
        totalBillingPeriods = UInt64(max(0, total))
        self.price = Decimal(price) / 1000
      } else if let fallback {
        expirationDate = fallback.expiresDate
        billingPeriodNumber = UInt64(max(0, fallback.billingPeriodNumber))
        totalBillingPeriods = UInt64(max(0, fallback.totalBillingPeriods))
        price = fallback.price
      } else {
        return nil
      }
    }
  }
}

extension Product.SubscriptionInfo.RenewalInfo {
  /// What the end of the current commitment brings (`RenewalCommitmentInfo`).
  public struct CommitmentInfo: Equatable, Hashable, Sendable {
    /// When the commitment ends and the next one (or period) begins.
    public let renewalDate: Date
    /// What the next commitment (or up-front period) costs.
    public let renewalPrice: Decimal
    /// Whether the commitment renews at its end (false once the customer cancelled).
    public let willAutoRenew: Bool
    /// The product it renews into.
    public let autoRenewPreference: String
    /// The plan it renews on.
    public let renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType

    init?(_ signed: RenewalCommitmentInfo?) {
      guard let signed, let date = signed.commitmentRenewalDate, let price = signed.commitmentRenewalPrice else { return nil }
      renewalDate = SignedPayloads.date(milliseconds: date)
      renewalPrice = Decimal(price) / 1000
      willAutoRenew = signed.commitmentAutoRenewStatus == 1
      autoRenewPreference = signed.commitmentAutoRenewProductId ?? ""
      renewalBillingPlanType = .init(rawValue: signed.commitmentRenewalBillingPlanType ?? StoreEngine.BillingPlan.upFront)
    }
  }
}
