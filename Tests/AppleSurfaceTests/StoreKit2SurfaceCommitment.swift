// Apple's StoreKit 2 declarations of monthly subscriptions with a 12-month commitment (iOS 26.4),
// named with Apple's signatures (declarations/storekit2.txt).
// Compiled, never called: each line type-checks one declaration against Apple's interface.
import Foundation
import StoreKit

/// Each line below type-checks one declaration.
func storeKit2CommitmentSurface(
  _ info: Product.SubscriptionInfo, _ transaction: Transaction, _ renewal: Product.SubscriptionInfo.RenewalInfo
) {
  // decl: Product.SubscriptionInfo.pricingTerms
  let _: KeyPath<Product.SubscriptionInfo, [Product.SubscriptionInfo.PricingTerms]> = \.pricingTerms
  // decl: Product.SubscriptionInfo.PricingTerms
  let _: (any Hashable & Sendable)? = info.pricingTerms.first
  // decl: Product.SubscriptionInfo.PricingTerms.billingPlanType
  let _: KeyPath<Product.SubscriptionInfo.PricingTerms, Product.SubscriptionInfo.BillingPlanType> = \.billingPlanType
  // decl: Product.SubscriptionInfo.PricingTerms.subscriptionOffers
  let _: KeyPath<Product.SubscriptionInfo.PricingTerms, [Product.SubscriptionOffer]> = \.subscriptionOffers
  // decl: Product.SubscriptionInfo.BillingPlanType
  let _: any RawRepresentable & Hashable & Sendable = Product.SubscriptionInfo.BillingPlanType.monthly
  // decl: Product.SubscriptionInfo.BillingPlanType.upFront
  let _: Product.SubscriptionInfo.BillingPlanType = .upFront
  // decl: Product.SubscriptionInfo.BillingPlanType.monthly
  let _: Product.SubscriptionInfo.BillingPlanType = .monthly
  // decl: Product.PurchaseOption.billingPlanType(_:)
  let _: Product.PurchaseOption = .billingPlanType(.monthly)
  // decl: Transaction.billingPlanType
  let _: KeyPath<Transaction, Product.SubscriptionInfo.BillingPlanType?> = \.billingPlanType
  // decl: Transaction.commitmentInfo
  let _: KeyPath<Transaction, Transaction.CommitmentInfo?> = \.commitmentInfo
  // decl: Transaction.CommitmentInfo
  let _: (any Hashable & Sendable)? = transaction.commitmentInfo
  // decl: Transaction.CommitmentInfo.expirationDate
  let _: KeyPath<Transaction.CommitmentInfo, Date> = \.expirationDate
  // decl: Transaction.CommitmentInfo.billingPeriodNumber
  let _: KeyPath<Transaction.CommitmentInfo, UInt64> = \.billingPeriodNumber
  // decl: Transaction.CommitmentInfo.totalBillingPeriods
  let _: KeyPath<Transaction.CommitmentInfo, UInt64> = \.totalBillingPeriods
  // decl: Transaction.CommitmentInfo.price
  let _: KeyPath<Transaction.CommitmentInfo, Decimal> = \.price
  // decl: Product.SubscriptionInfo.RenewalInfo.renewalBillingPlanType
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Product.SubscriptionInfo.BillingPlanType?> = \.renewalBillingPlanType
  // decl: Product.SubscriptionInfo.RenewalInfo.commitmentInfo
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Product.SubscriptionInfo.RenewalInfo.CommitmentInfo?> = \.commitmentInfo
  // decl: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo
  let _: (any Hashable & Sendable)? = renewal.commitmentInfo
  // decl: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo.renewalDate
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo.CommitmentInfo, Date> = \.renewalDate
  // decl: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo.renewalPrice
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo.CommitmentInfo, Decimal> = \.renewalPrice
  // decl: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo.willAutoRenew
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo.CommitmentInfo, Bool> = \.willAutoRenew
  // decl: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo.autoRenewPreference
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo.CommitmentInfo, String> = \.autoRenewPreference
  // decl: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo.renewalBillingPlanType
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo.CommitmentInfo, Product.SubscriptionInfo.BillingPlanType> = \.renewalBillingPlanType
}
