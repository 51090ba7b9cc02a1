// Apple's StoreKit 2 verification, App Store, app transaction, storefront, errors, messages and purchase intents, named with Apple's signatures (declarations/storekit2.txt).
// Compiled, never called: each line type-checks one declaration against Apple's interface.
import Foundation
import StoreKit

/// Each line below type-checks one declaration.
func storeKit2StoreSurface(
  _ verification: VerificationResult<Transaction>, _ renewal: VerificationResult<Product.SubscriptionInfo.RenewalInfo>,
  _ app: VerificationResult<AppTransaction>, _ intent: PurchaseIntent, _ message: Message
) async throws {
  // decl: VerificationResult
  let _: VerificationResult<NSObject>? = nil
  // decl: VerificationResult.Sendable
  let _: any Sendable = verification
  // decl: VerificationResult.verified
  let _: (Transaction) -> VerificationResult<Transaction> = VerificationResult<Transaction>.verified
  // decl: VerificationResult.unverified
  let _: (Transaction, VerificationResult<Transaction>.VerificationError) -> VerificationResult<Transaction> = VerificationResult<Transaction>.unverified
  // decl: VerificationResult.payloadValue
  let _: Transaction = try verification.payloadValue
  // decl: VerificationResult.unsafePayloadValue
  let _: Transaction = verification.unsafePayloadValue
  // decl: VerificationResult.debugDescription
  let _: String = verification.debugDescription
  // decl: VerificationResult.VerificationError
  let _: any Error & Hashable = VerificationResult<Transaction>.VerificationError.invalidSignature
  // decl: VerificationResult.VerificationError.revokedCertificate
  let _: VerificationResult<Transaction>.VerificationError = .revokedCertificate
  // decl: VerificationResult.VerificationError.invalidCertificateChain
  let _: VerificationResult<Transaction>.VerificationError = .invalidCertificateChain
  // decl: VerificationResult.VerificationError.invalidDeviceVerification
  let _: VerificationResult<Transaction>.VerificationError = .invalidDeviceVerification
  // decl: VerificationResult.VerificationError.invalidEncoding
  let _: VerificationResult<Transaction>.VerificationError = .invalidEncoding
  // decl: VerificationResult.VerificationError.invalidSignature
  let _: VerificationResult<Transaction>.VerificationError = .invalidSignature
  // decl: VerificationResult.VerificationError.missingRequiredProperties
  let _: VerificationResult<Transaction>.VerificationError = .missingRequiredProperties
  // decl: VerificationResult.VerificationError.LocalizedError
  let _: any LocalizedError = VerificationResult<Transaction>.VerificationError.invalidSignature
  // decl: VerificationResult<Transaction>.jwsRepresentation
  let _: String = verification.jwsRepresentation
  // decl: VerificationResult<Transaction>.headerData
  let _: Data = verification.headerData
  // decl: VerificationResult<Transaction>.payloadData
  let _: Data = verification.payloadData
  // decl: VerificationResult<Transaction>.signatureData
  let _: Data = verification.signatureData
  // decl: VerificationResult<Transaction>.signature
  let _: P256.Signing.ECDSASignature = verification.signature
  // decl: VerificationResult<Transaction>.signedData
  let _: Data = verification.signedData
  // decl: VerificationResult<Transaction>.signedDate
  let _: Date = verification.signedDate
  // decl: VerificationResult<Transaction>.deviceVerification
  let _: Data = verification.deviceVerification
  // decl: VerificationResult<Transaction>.deviceVerificationNonce
  let _: UUID = verification.deviceVerificationNonce
  // decl: VerificationResult<AppTransaction>.jwsRepresentation
  let _: String = app.jwsRepresentation
  // decl: VerificationResult<AppTransaction>.headerData
  let _: Data = app.headerData
  // decl: VerificationResult<AppTransaction>.payloadData
  let _: Data = app.payloadData
  // decl: VerificationResult<AppTransaction>.signatureData
  let _: Data = app.signatureData
  // decl: VerificationResult<AppTransaction>.signature
  let _: P256.Signing.ECDSASignature = app.signature
  // decl: VerificationResult<AppTransaction>.signedData
  let _: Data = app.signedData
  // decl: VerificationResult<AppTransaction>.signedDate
  let _: Date = app.signedDate
  // decl: VerificationResult<AppTransaction>.deviceVerification
  let _: Data = app.deviceVerification
  // decl: VerificationResult<AppTransaction>.deviceVerificationNonce
  let _: UUID = app.deviceVerificationNonce
  // decl: VerificationResult<RenewalInfo>.jwsRepresentation
  let _: String = renewal.jwsRepresentation
  // decl: VerificationResult<RenewalInfo>.headerData
  let _: Data = renewal.headerData
  // decl: VerificationResult<RenewalInfo>.payloadData
  let _: Data = renewal.payloadData
  // decl: VerificationResult<RenewalInfo>.signatureData
  let _: Data = renewal.signatureData
  // decl: VerificationResult<RenewalInfo>.signature
  let _: P256.Signing.ECDSASignature = renewal.signature
  // decl: VerificationResult<RenewalInfo>.signedData
  let _: Data = renewal.signedData
  // decl: VerificationResult<RenewalInfo>.signedDate
  let _: Date = renewal.signedDate
  // decl: VerificationResult<RenewalInfo>.deviceVerification
  let _: Data = renewal.deviceVerification
  // decl: VerificationResult<RenewalInfo>.deviceVerificationNonce
  let _: UUID = renewal.deviceVerificationNonce
  // decl: AppStore
  let _: AppStore.Type = AppStore.self
  // decl: AppStore.canMakePayments
  let _: Bool = AppStore.canMakePayments
  // decl: AppStore.deviceVerificationID
  let _: UUID? = AppStore.deviceVerificationID
  // decl: AppStore.sync()
  try await AppStore.sync()
  // decl: AppStore.ageRatingCode
  let _: Int? = await AppStore.ageRatingCode
  // decl: RedeemOption
  let _: Set<RedeemOption> = []
  // decl: AppStore.Environment
  let _: any RawRepresentable & Hashable & Sendable = AppStore.Environment.production
  // decl: AppStore.Environment.rawValue
  let _: String = AppStore.Environment.production.rawValue
  // decl: AppStore.Environment.init(rawValue:)
  let _: (String) -> AppStore.Environment = AppStore.Environment.init(rawValue:)
  // decl: AppStore.Environment.production
  let _: AppStore.Environment = .production
  // decl: AppStore.Environment.sandbox
  let _: AppStore.Environment = .sandbox
  // decl: AppStore.Environment.xcode
  let _: AppStore.Environment = .xcode
  // decl: AppStore.Platform
  let _: any RawRepresentable & Hashable & Sendable = AppStore.Platform.iOS
  // decl: AppStore.Platform.rawValue
  let _: String = AppStore.Platform.iOS.rawValue
  // decl: AppStore.Platform.init(rawValue:)
  let _: (String) -> AppStore.Platform = AppStore.Platform.init(rawValue:)
  // decl: AppStore.Platform.iOS
  let _: AppStore.Platform = .iOS
  // decl: AppStore.Platform.macOS
  let _: AppStore.Platform = .macOS
  // decl: AppStore.Platform.tvOS
  let _: AppStore.Platform = .tvOS
  // decl: AppStore.Platform.visionOS
  let _: AppStore.Platform = .visionOS
  // decl: AppTransaction
  let _: any Hashable & Sendable & CustomDebugStringConvertible = app.unsafePayloadValue
  // decl: AppTransaction.jsonRepresentation
  let _: KeyPath<AppTransaction, Data> = \.jsonRepresentation
  // decl: AppTransaction.appID
  let _: KeyPath<AppTransaction, UInt64?> = \.appID
  // decl: AppTransaction.appTransactionID
  let _: KeyPath<AppTransaction, String> = \.appTransactionID
  // decl: AppTransaction.appVersion
  let _: KeyPath<AppTransaction, String> = \.appVersion
  // decl: AppTransaction.appVersionID
  let _: KeyPath<AppTransaction, UInt64?> = \.appVersionID
  // decl: AppTransaction.bundleID
  let _: KeyPath<AppTransaction, String> = \.bundleID
  // decl: AppTransaction.environment
  let _: KeyPath<AppTransaction, AppStore.Environment> = \.environment
  // decl: AppTransaction.originalAppVersion
  let _: KeyPath<AppTransaction, String> = \.originalAppVersion
  // decl: AppTransaction.originalPurchaseDate
  let _: KeyPath<AppTransaction, Date> = \.originalPurchaseDate
  // decl: AppTransaction.originalPlatform
  let _: KeyPath<AppTransaction, AppStore.Platform> = \.originalPlatform
  // decl: AppTransaction.preorderDate
  let _: KeyPath<AppTransaction, Date?> = \.preorderDate
  // decl: AppTransaction.deviceVerification
  let _: KeyPath<AppTransaction, Data> = \.deviceVerification
  // decl: AppTransaction.deviceVerificationNonce
  let _: KeyPath<AppTransaction, UUID> = \.deviceVerificationNonce
  // decl: AppTransaction.signedDate
  let _: KeyPath<AppTransaction, Date> = \.signedDate
  // decl: AppTransaction.debugDescription
  let _: KeyPath<AppTransaction, String> = \.debugDescription
  // decl: AppTransaction.shared
  let _: VerificationResult<AppTransaction> = try await AppTransaction.shared
  // decl: AppTransaction.refresh()
  let _: VerificationResult<AppTransaction> = try await AppTransaction.refresh()
  // decl: Storefront
  let _: (any Identifiable & Sendable)? = await Storefront.current
  // decl: Storefront.countryCode
  let _: KeyPath<Storefront, String> = \.countryCode
  // decl: Storefront.id
  let _: KeyPath<Storefront, String> = \.id
  // decl: Storefront.currency
  let _: KeyPath<Storefront, Locale.Currency?> = \.currency
  // decl: Storefront.current
  let _: Storefront? = await Storefront.current
  // decl: Storefront.updates
  let _: Storefront.Storefronts = Storefront.updates
  // decl: Storefront.Storefronts
  for await storefront in Storefront.updates as Storefront.Storefronts {
    let _: Storefront = storefront
  }
  // decl: StoreKitError
  let _: any Error & Sendable = StoreKitError.unknown
  // decl: StoreKitError.unknown
  let _: StoreKitError = .unknown
  // decl: StoreKitError.userCancelled
  let _: StoreKitError = .userCancelled
  // decl: StoreKitError.notAvailableInStorefront
  let _: StoreKitError = .notAvailableInStorefront
  // decl: StoreKitError.notEntitled
  let _: StoreKitError = .notEntitled
  // decl: StoreKitError.unsupported
  let _: StoreKitError = .unsupported
  // decl: StoreKitError.networkError(_:)
  let _: (URLError) -> StoreKitError = StoreKitError.networkError
  // decl: StoreKitError.systemError(_:)
  let _: (any Error) -> StoreKitError = StoreKitError.systemError
  // decl: StoreKitError.errorDescription
  let _: String? = StoreKitError.unknown.errorDescription
  // decl: StoreKitError.failureReason
  let _: String? = StoreKitError.unknown.failureReason
  // decl: StoreKitError.recoverySuggestion
  let _: String? = StoreKitError.unknown.recoverySuggestion
  // decl: Message
  let _: any Hashable & Sendable = message
  // decl: Message.reason
  let _: KeyPath<Message, Message.Reason> = \.reason
  // decl: Message.Reason
  let _: any RawRepresentable & Hashable & Sendable = Message.Reason.generic
  // decl: Message.Reason.rawValue
  let _: Int = Message.Reason.generic.rawValue
  // decl: Message.Reason.init(rawValue:)
  let _: (Int) -> Message.Reason = Message.Reason.init(rawValue:)
  // decl: Message.Reason.generic
  let _: Message.Reason = .generic
  // decl: Message.Reason.priceIncreaseConsent
  let _: Message.Reason = .priceIncreaseConsent
  // decl: Message.Reason.billingIssue
  let _: Message.Reason = .billingIssue
  // decl: Message.Reason.winBackOffer
  let _: Message.Reason = .winBackOffer
  // decl: Message.Reason.localizedDescription
  let _: String = Message.Reason.billingIssue.localizedDescription
  // decl: Message.Messages
  for await element in Message.messages as Message.Messages {
    let _: Message = element
  }
  // decl: Message.messages
  let _: Message.Messages = Message.messages
  // decl: PurchaseIntent
  let _: any Identifiable & Equatable & Sendable = intent
  // decl: PurchaseIntent.product
  let _: KeyPath<PurchaseIntent, Product> = \.product
  // decl: PurchaseIntent.offer
  let _: KeyPath<PurchaseIntent, Product.SubscriptionOffer?> = \.offer
  // decl: PurchaseIntent.id
  let _: KeyPath<PurchaseIntent, Product.ID> = \.id
  // decl: PurchaseIntent.PurchaseIntents
  for await element in PurchaseIntent.intents as PurchaseIntent.PurchaseIntents {
    let _: PurchaseIntent = element
  }
  // decl: PurchaseIntent.intents
  let _: PurchaseIntent.PurchaseIntents = PurchaseIntent.intents
}

/// The declarations Apple deprecates, used where the deprecation is expected.
@available(*, deprecated, message: "uses Apple's deprecated declarations")
func storeKit2DeprecatedStoreSurface(
  _ verification: VerificationResult<Transaction>, _ renewal: VerificationResult<Product.SubscriptionInfo.RenewalInfo>,
  _ app: VerificationResult<AppTransaction>, _ intent: PurchaseIntent, _ message: Message
) async throws {
  // decl: AppTransaction.originalPlatformStringRepresentation
  let _: String = app.unsafePayloadValue.originalPlatformStringRepresentation
}
