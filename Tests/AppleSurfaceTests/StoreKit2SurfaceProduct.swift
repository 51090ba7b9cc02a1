// Apple's StoreKit 2 Product, its types and options, named with Apple's signatures (declarations/storekit2.txt).
// Compiled, never called: each line type-checks one declaration against Apple's interface.
import Foundation
import StoreKit

/// Each line below type-checks one declaration.
func storeKit2ProductSurface(_ product: Product, _ offer: Product.SubscriptionOffer, _ info: Product.SubscriptionInfo) async throws {
  // decl: Product
  let _: any Identifiable & Hashable & Sendable = product
  // decl: Product.id
  let _: KeyPath<Product, String> = \.id
  // decl: Product.type
  let _: KeyPath<Product, Product.ProductType> = \.type
  // decl: Product.displayName
  let _: KeyPath<Product, String> = \.displayName
  // decl: Product.description
  let _: KeyPath<Product, String> = \.description
  // decl: Product.price
  let _: KeyPath<Product, Decimal> = \.price
  // decl: Product.displayPrice
  let _: KeyPath<Product, String> = \.displayPrice
  // decl: Product.isFamilyShareable
  let _: KeyPath<Product, Bool> = \.isFamilyShareable
  // decl: Product.subscription
  let _: KeyPath<Product, Product.SubscriptionInfo?> = \.subscription
  // decl: Product.jsonRepresentation
  let _: KeyPath<Product, Data> = \.jsonRepresentation
  // decl: Product.priceFormatStyle
  let _: KeyPath<Product, Decimal.FormatStyle.Currency> = \.priceFormatStyle
  // decl: Product.products(for:)
  let _: [Product] = try await Product.products(for: ["a", "b"])
  // decl: Product.purchase(options:)
  let _: Product.PurchaseResult = try await product.purchase(options: [.quantity(1)])
  // decl: Product.debugDescription
  let _: KeyPath<Product, String> = \.debugDescription
  // decl: Product.latestTransaction
  let _: VerificationResult<Transaction>? = await product.latestTransaction
  // decl: Product.currentEntitlements
  let _: Transaction.Transactions = product.currentEntitlements
  // decl: Product.subscriptionPeriodUnitFormatStyle
  let _: KeyPath<Product, Product.SubscriptionPeriod.Unit.FormatStyle> = \.subscriptionPeriodUnitFormatStyle
  // decl: Product.ProductType
  let _: any RawRepresentable & Hashable & Sendable = Product.ProductType.consumable
  // decl: Product.ProductType.rawValue
  let _: String = Product.ProductType.consumable.rawValue
  // decl: Product.ProductType.init(rawValue:)
  let _: (String) -> Product.ProductType = Product.ProductType.init(rawValue:)
  // decl: Product.ProductType.consumable
  let _: Product.ProductType = .consumable
  // decl: Product.ProductType.nonConsumable
  let _: Product.ProductType = .nonConsumable
  // decl: Product.ProductType.nonRenewable
  let _: Product.ProductType = .nonRenewable
  // decl: Product.ProductType.autoRenewable
  let _: Product.ProductType = .autoRenewable
  // decl: Product.ProductType.subscriptionBundle
  let _: Product.ProductType = .subscriptionBundle
  // decl: Product.ProductType.subscriptionSuite
  let _: Product.ProductType = .subscriptionSuite
  // decl: Product.ProductType.localizedDescription
  let _: String = Product.ProductType.consumable.localizedDescription
  // decl: Product.SubscriptionPeriod
  let _: any Hashable & Sendable = Product.SubscriptionPeriod.monthly
  // decl: Product.SubscriptionPeriod.unit
  let _: KeyPath<Product.SubscriptionPeriod, Product.SubscriptionPeriod.Unit> = \.unit
  // decl: Product.SubscriptionPeriod.value
  let _: KeyPath<Product.SubscriptionPeriod, Int> = \.value
  // decl: Product.SubscriptionPeriod.debugDescription
  let _: any CustomDebugStringConvertible = Product.SubscriptionPeriod.monthly
  // decl: Product.SubscriptionPeriod.dateRange(referenceDate:)
  let _: Range<Date> = Product.SubscriptionPeriod.monthly.dateRange(referenceDate: Date())
  // decl: Product.SubscriptionPeriod.formatted(_:referenceDate:)[Range<Date>]
  let _: String = Product.SubscriptionPeriod.monthly.formatted(RangeStyle(), referenceDate: Date())
  // decl: Product.SubscriptionPeriod.formatted(_:referenceDate:)[Duration]
  let _: String = Product.SubscriptionPeriod.monthly.formatted(DurationStyle(), referenceDate: Date())
  // decl: Product.SubscriptionPeriod.weekly
  let _: Product.SubscriptionPeriod = .weekly
  // decl: Product.SubscriptionPeriod.monthly
  let _: Product.SubscriptionPeriod = .monthly
  // decl: Product.SubscriptionPeriod.yearly
  let _: Product.SubscriptionPeriod = .yearly
  // decl: Product.SubscriptionPeriod.everyThreeDays
  let _: Product.SubscriptionPeriod = .everyThreeDays
  // decl: Product.SubscriptionPeriod.everyTwoWeeks
  let _: Product.SubscriptionPeriod = .everyTwoWeeks
  // decl: Product.SubscriptionPeriod.everyTwoMonths
  let _: Product.SubscriptionPeriod = .everyTwoMonths
  // decl: Product.SubscriptionPeriod.everyThreeMonths
  let _: Product.SubscriptionPeriod = .everyThreeMonths
  // decl: Product.SubscriptionPeriod.everySixMonths
  let _: Product.SubscriptionPeriod = .everySixMonths
  // decl: Product.SubscriptionPeriod.Unit
  let _: any Hashable & Comparable & Sendable = Product.SubscriptionPeriod.Unit.day
  // decl: Product.SubscriptionPeriod.Unit.day
  let _: Product.SubscriptionPeriod.Unit = .day
  // decl: Product.SubscriptionPeriod.Unit.week
  let _: Product.SubscriptionPeriod.Unit = .week
  // decl: Product.SubscriptionPeriod.Unit.month
  let _: Product.SubscriptionPeriod.Unit = .month
  // decl: Product.SubscriptionPeriod.Unit.year
  let _: Product.SubscriptionPeriod.Unit = .year
  // decl: Product.SubscriptionPeriod.Unit.debugDescription
  let _: String = Product.SubscriptionPeriod.Unit.day.debugDescription
  // decl: Product.SubscriptionPeriod.Unit.localizedDescription
  let _: String = Product.SubscriptionPeriod.Unit.day.localizedDescription
  // decl: Product.SubscriptionPeriod.Unit.FormatStyle
  let _: any FormatStyle = product.subscriptionPeriodUnitFormatStyle.locale(Locale(identifier: "en_US"))
  // decl: Product.SubscriptionPeriod.Unit.formatted(_:)
  let _: String = Product.SubscriptionPeriod.Unit.day.formatted(product.subscriptionPeriodUnitFormatStyle)
  // decl: Product.SubscriptionPeriod.Unit.<(_:_:)
  let _: (Product.SubscriptionPeriod.Unit, Product.SubscriptionPeriod.Unit) -> Bool = (<)
  // decl: DateComponents.init(subscriptionPeriod:)
  let _: DateComponents = DateComponents(subscriptionPeriod: .monthly)
  // decl: Product.SubscriptionOffer
  let _: any Hashable & Sendable = offer
  // decl: Product.SubscriptionOffer.id
  let _: KeyPath<Product.SubscriptionOffer, String?> = \.id
  // decl: Product.SubscriptionOffer.type
  let _: KeyPath<Product.SubscriptionOffer, Product.SubscriptionOffer.OfferType> = \.type
  // decl: Product.SubscriptionOffer.price
  let _: KeyPath<Product.SubscriptionOffer, Decimal> = \.price
  // decl: Product.SubscriptionOffer.displayPrice
  let _: KeyPath<Product.SubscriptionOffer, String> = \.displayPrice
  // decl: Product.SubscriptionOffer.period
  let _: KeyPath<Product.SubscriptionOffer, Product.SubscriptionPeriod> = \.period
  // decl: Product.SubscriptionOffer.periodCount
  let _: KeyPath<Product.SubscriptionOffer, Int> = \.periodCount
  // decl: Product.SubscriptionOffer.paymentMode
  let _: KeyPath<Product.SubscriptionOffer, Product.SubscriptionOffer.PaymentMode> = \.paymentMode
  // decl: Product.SubscriptionOffer.OfferType
  let _: any RawRepresentable & Hashable & Sendable = Product.SubscriptionOffer.OfferType.introductory
  // decl: Product.SubscriptionOffer.OfferType.rawValue
  let _: String = Product.SubscriptionOffer.OfferType.introductory.rawValue
  // decl: Product.SubscriptionOffer.OfferType.init(rawValue:)
  let _: (String) -> Product.SubscriptionOffer.OfferType = Product.SubscriptionOffer.OfferType.init(rawValue:)
  // decl: Product.SubscriptionOffer.OfferType.introductory
  let _: Product.SubscriptionOffer.OfferType = .introductory
  // decl: Product.SubscriptionOffer.OfferType.promotional
  let _: Product.SubscriptionOffer.OfferType = .promotional
  // decl: Product.SubscriptionOffer.OfferType.winBack
  let _: Product.SubscriptionOffer.OfferType = .winBack
  // decl: Product.SubscriptionOffer.OfferType.localizedDescription
  let _: String = Product.SubscriptionOffer.OfferType.winBack.localizedDescription
  // decl: Product.SubscriptionOffer.PaymentMode
  let _: any RawRepresentable & Hashable & Sendable = Product.SubscriptionOffer.PaymentMode.freeTrial
  // decl: Product.SubscriptionOffer.PaymentMode.rawValue
  let _: String = Product.SubscriptionOffer.PaymentMode.freeTrial.rawValue
  // decl: Product.SubscriptionOffer.PaymentMode.init(rawValue:)
  let _: (String) -> Product.SubscriptionOffer.PaymentMode = Product.SubscriptionOffer.PaymentMode.init(rawValue:)
  // decl: Product.SubscriptionOffer.PaymentMode.freeTrial
  let _: Product.SubscriptionOffer.PaymentMode = .freeTrial
  // decl: Product.SubscriptionOffer.PaymentMode.payAsYouGo
  let _: Product.SubscriptionOffer.PaymentMode = .payAsYouGo
  // decl: Product.SubscriptionOffer.PaymentMode.payUpFront
  let _: Product.SubscriptionOffer.PaymentMode = .payUpFront
  // decl: Product.SubscriptionOffer.PaymentMode.localizedDescription
  let _: String = Product.SubscriptionOffer.PaymentMode.freeTrial.localizedDescription
  // decl: Product.PurchaseOption
  let _: Set<Product.PurchaseOption> = [.quantity(2)]
  // decl: Product.PurchaseOption.quantity(_:)
  let _: (Int) -> Product.PurchaseOption = Product.PurchaseOption.quantity
  // decl: Product.PurchaseOption.appAccountToken(_:)
  let _: (UUID) -> Product.PurchaseOption = Product.PurchaseOption.appAccountToken
  // decl: Product.PurchaseOption.simulatesAskToBuyInSandbox(_:)
  let _: (Bool) -> Product.PurchaseOption = Product.PurchaseOption.simulatesAskToBuyInSandbox
  // decl: Product.PurchaseOption.custom(key:value:)[String]
  let _: Product.PurchaseOption = .custom(key: "k", value: "v")
  // decl: Product.PurchaseOption.custom(key:value:)[Double]
  let _: Product.PurchaseOption = .custom(key: "k", value: 1.5)
  // decl: Product.PurchaseOption.custom(key:value:)[Bool]
  let _: Product.PurchaseOption = .custom(key: "k", value: true)
  // decl: Product.PurchaseOption.custom(key:value:)[Data]
  let _: Product.PurchaseOption = .custom(key: "k", value: Data())
  // decl: Product.PurchaseOption.onStorefrontChange(shouldContinuePurchase:)
  let _: Product.PurchaseOption = .onStorefrontChange { (_: Storefront) -> Bool in true }
  // decl: Product.PurchaseOption.promotionalOffer(_:compactJWS:)
  let _: [Product.PurchaseOption] = Product.PurchaseOption.promotionalOffer("offer", compactJWS: "a.b.c")
  // decl: Product.PurchaseOption.winBackOffer(_:)
  let _: (Product.SubscriptionOffer) -> Product.PurchaseOption = Product.PurchaseOption.winBackOffer
  // decl: Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)
  let _: (String) -> Product.PurchaseOption = Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)
  // decl: Product.PurchaseOption.debugDescription
  let _: String = Product.PurchaseOption.quantity(1).debugDescription
  // decl: Product.PurchaseResult
  let result: Product.PurchaseResult = .pending
  let _: any Sendable = result
  // decl: Product.PurchaseResult.success
  let _: (VerificationResult<Transaction>) -> Product.PurchaseResult = Product.PurchaseResult.success
  // decl: Product.PurchaseResult.userCancelled
  let _: Product.PurchaseResult = .userCancelled
  // decl: Product.PurchaseResult.pending
  let _: Product.PurchaseResult = .pending
  // decl: Product.PurchaseError
  let _: any Error & Hashable = Product.PurchaseError.invalidQuantity
  // decl: Product.PurchaseError.invalidQuantity
  let _: Product.PurchaseError = .invalidQuantity
  // decl: Product.PurchaseError.productUnavailable
  let _: Product.PurchaseError = .productUnavailable
  // decl: Product.PurchaseError.purchaseNotAllowed
  let _: Product.PurchaseError = .purchaseNotAllowed
  // decl: Product.PurchaseError.ineligibleForOffer
  let _: Product.PurchaseError = .ineligibleForOffer
  // decl: Product.PurchaseError.invalidOfferIdentifier
  let _: Product.PurchaseError = .invalidOfferIdentifier
  // decl: Product.PurchaseError.invalidOfferPrice
  let _: Product.PurchaseError = .invalidOfferPrice
  // decl: Product.PurchaseError.invalidOfferSignature
  let _: Product.PurchaseError = .invalidOfferSignature
  // decl: Product.PurchaseError.missingOfferParameters
  let _: Product.PurchaseError = .missingOfferParameters
  // decl: Product.PurchaseError.errorDescription
  let _: String? = Product.PurchaseError.invalidQuantity.errorDescription
  // decl: Product.PurchaseError.failureReason
  let _: String? = Product.PurchaseError.invalidQuantity.failureReason
  // decl: Product.PurchaseError.recoverySuggestion
  let _: String? = Product.PurchaseError.invalidQuantity.recoverySuggestion
}

/// The declarations Apple deprecates, used where the deprecation is expected.
@available(*, deprecated, message: "uses Apple's deprecated declarations")
func storeKit2DeprecatedProductSurface(_ product: Product, _ offer: Product.SubscriptionOffer, _ info: Product.SubscriptionInfo) async throws {
  // decl: Product.currentEntitlement
  let _: VerificationResult<Transaction>? = await product.currentEntitlement
  // decl: Product.SubscriptionOffer.Signature
  let signature: any Hashable & Sendable = Product.SubscriptionOffer.Signature(keyID: "k", nonce: UUID(), timestamp: 1, signature: Data())
  surfaceUse(signature)
  // decl: Product.SubscriptionOffer.Signature.init(keyID:nonce:timestamp:signature:)
  let _: (String, UUID, Int, Data) -> Product.SubscriptionOffer.Signature = Product.SubscriptionOffer.Signature.init(keyID:nonce:timestamp:signature:)
  // decl: Product.SubscriptionOffer.Signature.keyID
  let _: WritableKeyPath<Product.SubscriptionOffer.Signature, String> = \.keyID
  // decl: Product.SubscriptionOffer.Signature.nonce
  let _: WritableKeyPath<Product.SubscriptionOffer.Signature, UUID> = \.nonce
  // decl: Product.SubscriptionOffer.Signature.timestamp
  let _: WritableKeyPath<Product.SubscriptionOffer.Signature, Int> = \.timestamp
  // decl: Product.SubscriptionOffer.Signature.signature
  let _: WritableKeyPath<Product.SubscriptionOffer.Signature, Data> = \.signature
  // decl: Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)
  let _: (String, String, UUID, Data, Int) -> Product.PurchaseOption = Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)
  // decl: Product.PurchaseOption.promotionalOffer(offerID:signature:)
  let _: (String, Product.SubscriptionOffer.Signature) -> Product.PurchaseOption = Product.PurchaseOption.promotionalOffer(offerID:signature:)
}

/// A format style of date ranges, for `formatted(_:referenceDate:)`.
struct RangeStyle: FormatStyle {
  func format(_ value: Range<Date>) -> String { "\(value)" }
}

/// A format style of durations, for `formatted(_:referenceDate:)`.
struct DurationStyle: FormatStyle {
  func format(_ value: Duration) -> String { "\(value)" }
}
