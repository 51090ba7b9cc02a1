// Apple's StoreKit 2 Transaction, its queries and nested types, named with Apple's signatures (declarations/storekit2.txt).
// Compiled, never called: each line type-checks one declaration against Apple's interface.
import Foundation
import StoreKit

/// Each line below type-checks one declaration.
func storeKit2TransactionSurface(_ transaction: Transaction) async throws {
  // decl: Transaction
  let _: any Identifiable & Hashable & Sendable & CustomDebugStringConvertible = transaction
  // decl: Transaction.jsonRepresentation
  let _: KeyPath<Transaction, Data> = \.jsonRepresentation
  // decl: Transaction.id
  let _: KeyPath<Transaction, UInt64> = \.id
  // decl: Transaction.originalID
  let _: KeyPath<Transaction, UInt64> = \.originalID
  // decl: Transaction.webOrderLineItemID
  let _: KeyPath<Transaction, String?> = \.webOrderLineItemID
  // decl: Transaction.productID
  let _: KeyPath<Transaction, String> = \.productID
  // decl: Transaction.subscriptionGroupID
  let _: KeyPath<Transaction, String?> = \.subscriptionGroupID
  // decl: Transaction.appBundleID
  let _: KeyPath<Transaction, String> = \.appBundleID
  // decl: Transaction.purchaseDate
  let _: KeyPath<Transaction, Date> = \.purchaseDate
  // decl: Transaction.originalPurchaseDate
  let _: KeyPath<Transaction, Date> = \.originalPurchaseDate
  // decl: Transaction.expirationDate
  let _: KeyPath<Transaction, Date?> = \.expirationDate
  // decl: Transaction.purchasedQuantity
  let _: KeyPath<Transaction, Int> = \.purchasedQuantity
  // decl: Transaction.isUpgraded
  let _: KeyPath<Transaction, Bool> = \.isUpgraded
  // decl: Transaction.offer
  let _: KeyPath<Transaction, Transaction.Offer?> = \.offer
  // decl: Transaction.revocationDate
  let _: KeyPath<Transaction, Date?> = \.revocationDate
  // decl: Transaction.revocationReason
  let _: KeyPath<Transaction, Transaction.RevocationReason?> = \.revocationReason
  // decl: Transaction.productType
  let _: KeyPath<Transaction, Product.ProductType> = \.productType
  // decl: Transaction.appAccountToken
  let _: KeyPath<Transaction, UUID?> = \.appAccountToken
  // decl: Transaction.environment
  let _: KeyPath<Transaction, AppStore.Environment> = \.environment
  // decl: Transaction.reason
  let _: KeyPath<Transaction, Transaction.Reason> = \.reason
  // decl: Transaction.storefront
  let _: KeyPath<Transaction, Storefront> = \.storefront
  // decl: Transaction.price
  let _: KeyPath<Transaction, Decimal?> = \.price
  // decl: Transaction.currency
  let _: KeyPath<Transaction, Locale.Currency?> = \.currency
  // decl: Transaction.deviceVerification
  let _: KeyPath<Transaction, Data> = \.deviceVerification
  // decl: Transaction.deviceVerificationNonce
  let _: KeyPath<Transaction, UUID> = \.deviceVerificationNonce
  // decl: Transaction.bundleProductID
  let _: KeyPath<Transaction, String?> = \.bundleProductID
  // decl: Transaction.bundleTransactionID
  let _: KeyPath<Transaction, String?> = \.bundleTransactionID
  // decl: Transaction.bundleOriginalTransactionID
  let _: KeyPath<Transaction, String?> = \.bundleOriginalTransactionID
  // decl: Transaction.bundleSubscriptionGroupID
  let _: KeyPath<Transaction, String?> = \.bundleSubscriptionGroupID
  // decl: Transaction.previousOriginalTransactionID
  let _: KeyPath<Transaction, UInt64?> = \.previousOriginalTransactionID
  // decl: Transaction.ownershipType
  let _: KeyPath<Transaction, Transaction.OwnershipType> = \.ownershipType
  // decl: Transaction.signedDate
  let _: KeyPath<Transaction, Date> = \.signedDate
  // decl: Transaction.appTransactionID
  let _: KeyPath<Transaction, String> = \.appTransactionID
  // decl: Transaction.debugDescription
  let _: KeyPath<Transaction, String> = \.debugDescription
  // decl: Transaction.finish()
  await transaction.finish()
  // decl: Transaction.subscriptionStatus
  let _: Product.SubscriptionInfo.Status? = await transaction.subscriptionStatus
  // decl: Transaction.Transactions
  for await result in Transaction.all as Transaction.Transactions {
    let _: VerificationResult<Transaction> = result
  }
  // decl: Transaction.all
  let _: Transaction.Transactions = Transaction.all
  // decl: Transaction.currentEntitlements
  let _: Transaction.Transactions = Transaction.currentEntitlements
  // decl: Transaction.latest(for:)
  let _: VerificationResult<Transaction>? = await Transaction.latest(for: "p")
  // decl: Transaction.unfinished
  let _: Transaction.Transactions = Transaction.unfinished
  // decl: Transaction.updates
  let _: Transaction.Transactions = Transaction.updates
  // decl: Transaction.all(for:)
  let _: Transaction.Transactions = Transaction.all(for: "p")
  // decl: Transaction.currentEntitlements(for:)
  let _: Transaction.Transactions = Transaction.currentEntitlements(for: "p")
  // decl: Transaction.Reason
  let _: any RawRepresentable & Hashable & Sendable = Transaction.Reason.purchase
  // decl: Transaction.Reason.rawValue
  let _: String = Transaction.Reason.purchase.rawValue
  // decl: Transaction.Reason.init(rawValue:)
  let _: (String) -> Transaction.Reason = Transaction.Reason.init(rawValue:)
  // decl: Transaction.Reason.purchase
  let _: Transaction.Reason = .purchase
  // decl: Transaction.Reason.renewal
  let _: Transaction.Reason = .renewal
  // decl: Transaction.RevocationReason
  let _: any RawRepresentable & Hashable & Sendable = Transaction.RevocationReason.developerIssue
  // decl: Transaction.RevocationReason.rawValue
  let _: Int = Transaction.RevocationReason.developerIssue.rawValue
  // decl: Transaction.RevocationReason.init(rawValue:)
  let _: (Int) -> Transaction.RevocationReason = Transaction.RevocationReason.init(rawValue:)
  // decl: Transaction.RevocationReason.developerIssue
  let _: Transaction.RevocationReason = .developerIssue
  // decl: Transaction.RevocationReason.other
  let _: Transaction.RevocationReason = .other
  // decl: Transaction.RevocationReason.upgradedToBundle
  let _: Transaction.RevocationReason = .upgradedToBundle
  // decl: Transaction.RevocationReason.localizedDescription
  let _: String = Transaction.RevocationReason.developerIssue.localizedDescription
  // decl: Transaction.OfferType
  let _: any RawRepresentable & Hashable & Sendable = Transaction.OfferType.introductory
  // decl: Transaction.OfferType.rawValue
  let _: Int = Transaction.OfferType.introductory.rawValue
  // decl: Transaction.OfferType.init(rawValue:)
  let _: (Int) -> Transaction.OfferType = Transaction.OfferType.init(rawValue:)
  // decl: Transaction.OfferType.introductory
  let _: Transaction.OfferType = .introductory
  // decl: Transaction.OfferType.promotional
  let _: Transaction.OfferType = .promotional
  // decl: Transaction.OfferType.code
  let _: Transaction.OfferType = .code
  // decl: Transaction.OfferType.winBack
  let _: Transaction.OfferType = .winBack
  // decl: Transaction.OfferType.localizedDescription
  let _: String = Transaction.OfferType.introductory.localizedDescription
  // decl: Transaction.OwnershipType
  let _: any RawRepresentable & Hashable & Sendable = Transaction.OwnershipType.purchased
  // decl: Transaction.OwnershipType.rawValue
  let _: String = Transaction.OwnershipType.purchased.rawValue
  // decl: Transaction.OwnershipType.init(rawValue:)
  let _: (String) -> Transaction.OwnershipType = Transaction.OwnershipType.init(rawValue:)
  // decl: Transaction.OwnershipType.purchased
  let _: Transaction.OwnershipType = .purchased
  // decl: Transaction.OwnershipType.familyShared
  let _: Transaction.OwnershipType = .familyShared
  // decl: Transaction.OwnershipType.localizedDescription
  let _: String = Transaction.OwnershipType.purchased.localizedDescription
  // decl: Transaction.Offer
  let _: (any Hashable & Sendable)? = transaction.offer
  // decl: Transaction.Offer.id
  let _: KeyPath<Transaction.Offer, String?> = \.id
  // decl: Transaction.Offer.type
  let _: KeyPath<Transaction.Offer, Transaction.OfferType> = \.type
  // decl: Transaction.Offer.paymentMode
  let _: KeyPath<Transaction.Offer, Transaction.Offer.PaymentMode?> = \.paymentMode
  // decl: Transaction.Offer.period
  let _: KeyPath<Transaction.Offer, Product.SubscriptionPeriod?> = \.period
  // decl: Transaction.Offer.PaymentMode
  let _: any RawRepresentable & Hashable & Sendable = Transaction.Offer.PaymentMode.freeTrial
  // decl: Transaction.Offer.PaymentMode.rawValue
  let _: String = Transaction.Offer.PaymentMode.freeTrial.rawValue
  // decl: Transaction.Offer.PaymentMode.init(rawValue:)
  let _: (String) -> Transaction.Offer.PaymentMode = Transaction.Offer.PaymentMode.init(rawValue:)
  // decl: Transaction.Offer.PaymentMode.freeTrial
  let _: Transaction.Offer.PaymentMode = .freeTrial
  // decl: Transaction.Offer.PaymentMode.payAsYouGo
  let _: Transaction.Offer.PaymentMode = .payAsYouGo
  // decl: Transaction.Offer.PaymentMode.payUpFront
  let _: Transaction.Offer.PaymentMode = .payUpFront
  // decl: Transaction.Offer.PaymentMode.oneTime
  let _: Transaction.Offer.PaymentMode = .oneTime
  // decl: Transaction.RefundRequestError
  let _: any Error & Hashable = Transaction.RefundRequestError.failed
  // decl: Transaction.RefundRequestError.duplicateRequest
  let _: Transaction.RefundRequestError = .duplicateRequest
  // decl: Transaction.RefundRequestError.failed
  let _: Transaction.RefundRequestError = .failed
  // decl: Transaction.RefundRequestError.LocalizedError
  let _: any LocalizedError = Transaction.RefundRequestError.failed
  // decl: Transaction.RefundRequestStatus
  let _: any Hashable & Sendable = Transaction.RefundRequestStatus.success
  // decl: Transaction.RefundRequestStatus.success
  let _: Transaction.RefundRequestStatus = .success
  // decl: Transaction.RefundRequestStatus.userCancelled
  let _: Transaction.RefundRequestStatus = .userCancelled
}

/// The declarations Apple deprecates, used where the deprecation is expected.
@available(*, deprecated, message: "uses Apple's deprecated declarations")
func storeKit2DeprecatedTransactionSurface(_ transaction: Transaction) async throws {
  // decl: Transaction.offerType
  let _: Transaction.OfferType? = transaction.offerType
  // decl: Transaction.offerID
  let _: String? = transaction.offerID
  // decl: Transaction.offerPaymentModeStringRepresentation
  let _: String? = transaction.offerPaymentModeStringRepresentation
  // decl: Transaction.offerPeriodStringRepresentation
  let _: String? = transaction.offerPeriodStringRepresentation
  // decl: Transaction.environmentStringRepresentation
  let _: String = transaction.environmentStringRepresentation
  // decl: Transaction.reasonStringRepresentation
  let _: String = transaction.reasonStringRepresentation
  // decl: Transaction.storefrontCountryCode
  let _: String = transaction.storefrontCountryCode
  // decl: Transaction.currencyCode
  let _: String? = transaction.currencyCode
  // decl: Transaction.currentEntitlement(for:)
  let _: VerificationResult<Transaction>? = await Transaction.currentEntitlement(for: "p")
}
