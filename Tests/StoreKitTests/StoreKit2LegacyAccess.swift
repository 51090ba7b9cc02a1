import Foundation
import StoreKit

/// Apple's deprecated StoreKit 2 members, reached through protocols the types conform to, so tests
/// of their behaviour compile without the deprecation warnings user code gets.
protocol LegacyTransactionFields {
  var offerType: Transaction.OfferType? { get }
  var offerID: String? { get }
  var offerPaymentModeStringRepresentation: String? { get }
  var offerPeriodStringRepresentation: String? { get }
  var environmentStringRepresentation: String { get }
  var reasonStringRepresentation: String { get }
  var storefrontCountryCode: String { get }
  var currencyCode: String? { get }
}

extension Transaction: LegacyTransactionFields {}

protocol LegacyRenewalFields {
  var offerID: String? { get }
  var offerType: Transaction.OfferType? { get }
  var offerPaymentModeStringRepresentation: String? { get }
  var offerPeriodStringRepresentation: String? { get }
  var environmentStringRepresentation: String { get }
  var currencyCode: String? { get }
}

extension Product.SubscriptionInfo.RenewalInfo: LegacyRenewalFields {}

protocol LegacyEntitlement {
  var currentEntitlement: VerificationResult<Transaction>? { get async }
}

extension Product: LegacyEntitlement {}

protocol LegacyTransactionQueries {
  static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>?
}

extension Transaction: LegacyTransactionQueries {}

protocol LegacyAppTransactionFields {
  var originalPlatformStringRepresentation: String { get }
}

extension AppTransaction: LegacyAppTransactionFields {}

func legacy(_ transaction: Transaction) -> any LegacyTransactionFields { transaction }
func legacy(_ info: Product.SubscriptionInfo.RenewalInfo) -> any LegacyRenewalFields { info }
func legacy(_ product: Product) -> any LegacyEntitlement { product }
func legacy(_ app: AppTransaction) -> any LegacyAppTransactionFields { app }
func legacyCurrentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
  await (Transaction.self as any LegacyTransactionQueries.Type).currentEntitlement(for: productID)
}
