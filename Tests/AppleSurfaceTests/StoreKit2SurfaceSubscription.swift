// Apple's StoreKit 2 subscription info, statuses and renewal info, named with Apple's signatures (declarations/storekit2.txt).
// Compiled, never called: each line type-checks one declaration against Apple's interface.
import Foundation
import StoreKit

/// Each line below type-checks one declaration.
func storeKit2SubscriptionSurface(_ info: Product.SubscriptionInfo, _ status: Product.SubscriptionInfo.Status, _ renewal: Product.SubscriptionInfo.RenewalInfo) async throws {
  // decl: Product.SubscriptionInfo
  let _: any Hashable & Sendable = info
  // decl: Product.SubscriptionInfo.introductoryOffer
  let _: KeyPath<Product.SubscriptionInfo, Product.SubscriptionOffer?> = \.introductoryOffer
  // decl: Product.SubscriptionInfo.promotionalOffers
  let _: KeyPath<Product.SubscriptionInfo, [Product.SubscriptionOffer]> = \.promotionalOffers
  // decl: Product.SubscriptionInfo.winBackOffers
  let _: KeyPath<Product.SubscriptionInfo, [Product.SubscriptionOffer]> = \.winBackOffers
  // decl: Product.SubscriptionInfo.subscriptionGroupID
  let _: KeyPath<Product.SubscriptionInfo, String> = \.subscriptionGroupID
  // decl: Product.SubscriptionInfo.subscriptionPeriod
  let _: KeyPath<Product.SubscriptionInfo, Product.SubscriptionPeriod> = \.subscriptionPeriod
  // decl: Product.SubscriptionInfo.groupLevel
  let _: KeyPath<Product.SubscriptionInfo, Int> = \.groupLevel
  // decl: Product.SubscriptionInfo.groupDisplayName
  let _: KeyPath<Product.SubscriptionInfo, String> = \.groupDisplayName
  // decl: Product.SubscriptionInfo.bundledSubscriptions
  let _: KeyPath<Product.SubscriptionInfo, [Product.SubscriptionInfo.BundledSubscription]> = \.bundledSubscriptions
  // decl: Product.SubscriptionInfo.BundledSubscription
  let _: (any Hashable & Sendable)? = info.bundledSubscriptions.first
  // decl: Product.SubscriptionInfo.BundledSubscription.id
  let _: KeyPath<Product.SubscriptionInfo.BundledSubscription, Product.ID> = \.id
  // decl: Product.SubscriptionInfo.BundledSubscription.displayName
  let _: KeyPath<Product.SubscriptionInfo.BundledSubscription, String> = \.displayName
  // decl: Product.SubscriptionInfo.BundledSubscription.description
  let _: KeyPath<Product.SubscriptionInfo.BundledSubscription, String> = \.description
  // decl: Product.SubscriptionInfo.BundledSubscription.price
  let _: KeyPath<Product.SubscriptionInfo.BundledSubscription, Decimal> = \.price
  // decl: Product.SubscriptionInfo.BundledSubscription.displayPrice
  let _: KeyPath<Product.SubscriptionInfo.BundledSubscription, String> = \.displayPrice
  // decl: Product.SubscriptionInfo.BundledSubscription.isFamilyShareable
  let _: KeyPath<Product.SubscriptionInfo.BundledSubscription, Bool> = \.isFamilyShareable
  // decl: Product.SubscriptionInfo.BundledSubscription.subscriptionGroupID
  let _: KeyPath<Product.SubscriptionInfo.BundledSubscription, String> = \.subscriptionGroupID
  // decl: Product.SubscriptionInfo.BundledSubscription.subscriptionGroupLevel
  let _: KeyPath<Product.SubscriptionInfo.BundledSubscription, Int> = \.subscriptionGroupLevel
  // decl: Product.SubscriptionInfo.BundledSubscription.subscriptionGroupDisplayName
  let _: KeyPath<Product.SubscriptionInfo.BundledSubscription, String> = \.subscriptionGroupDisplayName
  // decl: Product.SubscriptionInfo.isEligibleForIntroOffer
  let _: Bool = await info.isEligibleForIntroOffer
  // decl: Product.SubscriptionInfo.isEligibleForIntroOffer(for:)
  let _: Bool = await Product.SubscriptionInfo.isEligibleForIntroOffer(for: "group")
  // decl: Product.SubscriptionInfo.status
  let _: [Product.SubscriptionInfo.Status] = try await info.status
  // decl: Product.SubscriptionInfo.status(for:)
  let _: [Product.SubscriptionInfo.Status] = try await Product.SubscriptionInfo.status(for: "group")
  // decl: Product.SubscriptionInfo.status(transactionID:)
  let _: SubscriptionStatus? = try await Product.SubscriptionInfo.status(transactionID: 1)
  // decl: Product.SubscriptionInfo.Status
  let _: any Hashable & Sendable = status
  // decl: Product.SubscriptionInfo.Status.state
  let _: KeyPath<Product.SubscriptionInfo.Status, Product.SubscriptionInfo.RenewalState> = \.state
  // decl: Product.SubscriptionInfo.Status.transaction
  let _: KeyPath<Product.SubscriptionInfo.Status, VerificationResult<Transaction>> = \.transaction
  // decl: Product.SubscriptionInfo.Status.renewalInfo
  let _: KeyPath<Product.SubscriptionInfo.Status, VerificationResult<Product.SubscriptionInfo.RenewalInfo>> = \.renewalInfo
  // decl: Product.SubscriptionInfo.Status.Statuses
  for await element in Product.SubscriptionInfo.Status.updates as Product.SubscriptionInfo.Status.Statuses {
    let _: Product.SubscriptionInfo.Status = element
  }
  // decl: Product.SubscriptionInfo.Status.updates
  let _: Product.SubscriptionInfo.Status.Statuses = Product.SubscriptionInfo.Status.updates
  // decl: Product.SubscriptionInfo.Status.all
  let _: AsyncStream<(groupID: String, statuses: [Product.SubscriptionInfo.Status])> = Product.SubscriptionInfo.Status.all
  // decl: Product.SubscriptionInfo.RenewalState
  let _: any RawRepresentable & Hashable & Sendable = Product.SubscriptionInfo.RenewalState.subscribed
  // decl: Product.SubscriptionInfo.RenewalState.rawValue
  let _: Int = Product.SubscriptionInfo.RenewalState.subscribed.rawValue
  // decl: Product.SubscriptionInfo.RenewalState.init(rawValue:)
  let _: (Int) -> Product.SubscriptionInfo.RenewalState = Product.SubscriptionInfo.RenewalState.init(rawValue:)
  // decl: Product.SubscriptionInfo.RenewalState.subscribed
  let _: Product.SubscriptionInfo.RenewalState = .subscribed
  // decl: Product.SubscriptionInfo.RenewalState.expired
  let _: Product.SubscriptionInfo.RenewalState = .expired
  // decl: Product.SubscriptionInfo.RenewalState.inBillingRetryPeriod
  let _: Product.SubscriptionInfo.RenewalState = .inBillingRetryPeriod
  // decl: Product.SubscriptionInfo.RenewalState.inGracePeriod
  let _: Product.SubscriptionInfo.RenewalState = .inGracePeriod
  // decl: Product.SubscriptionInfo.RenewalState.revoked
  let _: Product.SubscriptionInfo.RenewalState = .revoked
  // decl: Product.SubscriptionInfo.RenewalState.localizedDescription
  let _: String = Product.SubscriptionInfo.RenewalState.revoked.localizedDescription
  // decl: Product.SubscriptionInfo.RenewalInfo
  let _: any Hashable & Sendable & CustomDebugStringConvertible = renewal
  // decl: Product.SubscriptionInfo.RenewalInfo.jsonRepresentation
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Data> = \.jsonRepresentation
  // decl: Product.SubscriptionInfo.RenewalInfo.originalTransactionID
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, UInt64> = \.originalTransactionID
  // decl: Product.SubscriptionInfo.RenewalInfo.currentProductID
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, String> = \.currentProductID
  // decl: Product.SubscriptionInfo.RenewalInfo.willAutoRenew
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Bool> = \.willAutoRenew
  // decl: Product.SubscriptionInfo.RenewalInfo.autoRenewPreference
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, String?> = \.autoRenewPreference
  // decl: Product.SubscriptionInfo.RenewalInfo.expirationReason
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Product.SubscriptionInfo.RenewalInfo.ExpirationReason?> = \.expirationReason
  // decl: Product.SubscriptionInfo.RenewalInfo.priceIncreaseStatus
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus> = \.priceIncreaseStatus
  // decl: Product.SubscriptionInfo.RenewalInfo.isInBillingRetry
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Bool> = \.isInBillingRetry
  // decl: Product.SubscriptionInfo.RenewalInfo.gracePeriodExpirationDate
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Date?> = \.gracePeriodExpirationDate
  // decl: Product.SubscriptionInfo.RenewalInfo.environment
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, AppStore.Environment> = \.environment
  // decl: Product.SubscriptionInfo.RenewalInfo.renewalDate
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Date?> = \.renewalDate
  // decl: Product.SubscriptionInfo.RenewalInfo.offer
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Transaction.Offer?> = \.offer
  // decl: Product.SubscriptionInfo.RenewalInfo.recentSubscriptionStartDate
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Date> = \.recentSubscriptionStartDate
  // decl: Product.SubscriptionInfo.RenewalInfo.renewalPrice
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Decimal?> = \.renewalPrice
  // decl: Product.SubscriptionInfo.RenewalInfo.currency
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Locale.Currency?> = \.currency
  // decl: Product.SubscriptionInfo.RenewalInfo.eligibleWinBackOfferIDs
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, [String]> = \.eligibleWinBackOfferIDs
  // decl: Product.SubscriptionInfo.RenewalInfo.deviceVerification
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Data> = \.deviceVerification
  // decl: Product.SubscriptionInfo.RenewalInfo.deviceVerificationNonce
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, UUID> = \.deviceVerificationNonce
  // decl: Product.SubscriptionInfo.RenewalInfo.signedDate
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, Date> = \.signedDate
  // decl: Product.SubscriptionInfo.RenewalInfo.appAccountToken
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, UUID?> = \.appAccountToken
  // decl: Product.SubscriptionInfo.RenewalInfo.appTransactionID
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, String> = \.appTransactionID
  // decl: Product.SubscriptionInfo.RenewalInfo.debugDescription
  let _: KeyPath<Product.SubscriptionInfo.RenewalInfo, String> = \.debugDescription
  // decl: Product.SubscriptionInfo.RenewalInfo.ExpirationReason
  let _: any RawRepresentable & Hashable & Sendable = Product.SubscriptionInfo.RenewalInfo.ExpirationReason.unknown
  // decl: Product.SubscriptionInfo.RenewalInfo.ExpirationReason.rawValue
  let _: Int = Product.SubscriptionInfo.RenewalInfo.ExpirationReason.unknown.rawValue
  // decl: Product.SubscriptionInfo.RenewalInfo.ExpirationReason.init(rawValue:)
  let _: (Int) -> Product.SubscriptionInfo.RenewalInfo.ExpirationReason = Product.SubscriptionInfo.RenewalInfo.ExpirationReason.init(rawValue:)
  // decl: Product.SubscriptionInfo.RenewalInfo.ExpirationReason.autoRenewDisabled
  let _: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = .autoRenewDisabled
  // decl: Product.SubscriptionInfo.RenewalInfo.ExpirationReason.billingError
  let _: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = .billingError
  // decl: Product.SubscriptionInfo.RenewalInfo.ExpirationReason.didNotConsentToPriceIncrease
  let _: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = .didNotConsentToPriceIncrease
  // decl: Product.SubscriptionInfo.RenewalInfo.ExpirationReason.productUnavailable
  let _: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = .productUnavailable
  // decl: Product.SubscriptionInfo.RenewalInfo.ExpirationReason.unknown
  let _: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = .unknown
  // decl: Product.SubscriptionInfo.RenewalInfo.ExpirationReason.localizedDescription
  let _: String = Product.SubscriptionInfo.RenewalInfo.ExpirationReason.billingError.localizedDescription
  // decl: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus
  let _: any Hashable & Sendable = Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.agreed
  // decl: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.noIncreasePending
  let _: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus = .noIncreasePending
  // decl: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.pending
  let _: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus = .pending
  // decl: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.agreed
  let _: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus = .agreed
  // decl: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.localizedDescription
  let _: String = Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.pending.localizedDescription
  // decl: SubscriptionInfo
  let _: Product.SubscriptionInfo.Type = SubscriptionInfo.self
  // decl: SubscriptionPeriod
  let _: Product.SubscriptionPeriod.Type = SubscriptionPeriod.self
  // decl: SubscriptionRenewalInfo
  let _: Product.SubscriptionInfo.RenewalInfo.Type = SubscriptionRenewalInfo.self
  // decl: SubscriptionRenewalState
  let _: Product.SubscriptionInfo.RenewalState.Type = SubscriptionRenewalState.self
  // decl: SubscriptionStatus
  let _: Product.SubscriptionInfo.Status.Type = SubscriptionStatus.self
}

/// The declarations Apple deprecates, used where the deprecation is expected.
@available(*, deprecated, message: "uses Apple's deprecated declarations")
func storeKit2DeprecatedSubscriptionSurface(_ info: Product.SubscriptionInfo, _ status: Product.SubscriptionInfo.Status, _ renewal: Product.SubscriptionInfo.RenewalInfo) async throws {
  // decl: Product.SubscriptionInfo.RenewalInfo.offerID
  let _: String? = renewal.offerID
  // decl: Product.SubscriptionInfo.RenewalInfo.offerType
  let _: Transaction.OfferType? = renewal.offerType
  // decl: Product.SubscriptionInfo.RenewalInfo.offerPaymentModeStringRepresentation
  let _: String? = renewal.offerPaymentModeStringRepresentation
  // decl: Product.SubscriptionInfo.RenewalInfo.offerPeriodStringRepresentation
  let _: String? = renewal.offerPeriodStringRepresentation
  // decl: Product.SubscriptionInfo.RenewalInfo.environmentStringRepresentation
  let _: String = renewal.environmentStringRepresentation
  // decl: Product.SubscriptionInfo.RenewalInfo.currencyCode
  let _: String? = renewal.currencyCode
}
