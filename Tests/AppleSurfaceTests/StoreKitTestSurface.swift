// Apple's StoreKitTest, named with Apple's signatures (declarations/storekittest.txt). This file
// imports StoreKitTest alone: Apple's module brings StoreKit's types with it, and so does ours.
import Foundation
import StoreKitTest
import XCTest

/// Compiled, never called: each line type-checks one declaration against Apple's signature.
func storeKitTestSurface(_ session: SKTestSession, _ transaction: SKTestTransaction) async throws {
  // decl: SKTestSession
  let _: NSObject = session
  // decl: SKTestSession.init(configurationFileNamed:)
  let _: (String) throws -> SKTestSession = SKTestSession.init(configurationFileNamed:)
  // decl: SKTestSession.init(contentsOf:)
  let _: (URL) throws -> SKTestSession = SKTestSession.init(contentsOf:)
  // decl: SKTestSession.askToBuyEnabled
  let _: ReferenceWritableKeyPath<SKTestSession, Bool> = \.askToBuyEnabled
  // decl: SKTestSession.disableDialogs
  let _: ReferenceWritableKeyPath<SKTestSession, Bool> = \.disableDialogs
  // decl: SKTestSession.interruptedPurchasesEnabled
  let _: ReferenceWritableKeyPath<SKTestSession, Bool> = \.interruptedPurchasesEnabled
  // decl: SKTestSession.shouldEnterBillingRetryOnRenewal
  let _: ReferenceWritableKeyPath<SKTestSession, Bool> = \.shouldEnterBillingRetryOnRenewal
  // decl: SKTestSession.billingGracePeriodIsEnabled
  let _: ReferenceWritableKeyPath<SKTestSession, Bool> = \.billingGracePeriodIsEnabled
  // decl: SKTestSession.storefront
  let _: ReferenceWritableKeyPath<SKTestSession, String> = \.storefront
  // decl: SKTestSession.locale
  let _: ReferenceWritableKeyPath<SKTestSession, Locale> = \.locale
  // decl: SKTestSession.timeRate
  let _: ReferenceWritableKeyPath<SKTestSession, SKTestSession.TimeRate> = \.timeRate
  // decl: SKTestSession.allTransactions()
  let _: (SKTestSession) -> () -> [SKTestTransaction] = SKTestSession.allTransactions
  // decl: SKTestSession.clearTransactions()
  let _: (SKTestSession) -> () -> Void = SKTestSession.clearTransactions
  // decl: SKTestSession.resetToDefaultState()
  let _: (SKTestSession) -> () -> Void = SKTestSession.resetToDefaultState
  // decl: SKTestSession.deleteTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.deleteTransaction(identifier:)
  // decl: SKTestSession.expireSubscription(productIdentifier:)
  let _: (SKTestSession) -> (String) throws -> Void = SKTestSession.expireSubscription(productIdentifier:)
  // decl: SKTestSession.forceRenewalOfSubscription(productIdentifier:)
  let _: (SKTestSession) -> (String) throws -> Void = SKTestSession.forceRenewalOfSubscription(productIdentifier:)
  // decl: SKTestSession.refundTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.refundTransaction(identifier:)
  // decl: SKTestSession.resolveIssueForTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.resolveIssueForTransaction(identifier:)
  // decl: SKTestSession.approveAskToBuyTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.approveAskToBuyTransaction(identifier:)
  // decl: SKTestSession.declineAskToBuyTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.declineAskToBuyTransaction(identifier:)
  // decl: SKTestSession.disableAutoRenewForTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.disableAutoRenewForTransaction(identifier:)
  // decl: SKTestSession.enableAutoRenewForTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.enableAutoRenewForTransaction(identifier:)
  // decl: SKTestSession.requestPriceIncreaseConsentForTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.requestPriceIncreaseConsentForTransaction(identifier:)
  // decl: SKTestSession.consentToPriceIncreaseForTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.consentToPriceIncreaseForTransaction(identifier:)
  // decl: SKTestSession.declinePriceIncreaseForTransaction(identifier:)
  let _: (SKTestSession) -> (UInt) throws -> Void = SKTestSession.declinePriceIncreaseForTransaction(identifier:)
  // decl: SKTestSession.buyProduct(identifier:options:)
  let _: Transaction = try await session.buyProduct(identifier: "id" as Product.ID, options: [] as Set<Product.PurchaseOption>)
  try await session.buyProduct(identifier: "id")  // @discardableResult
  // decl: SKTestSession.setSimulatedError(_:forAPI:)
  try await session.setSimulatedError(SKTestFailures.Purchase?.none, forAPI: StoreKitPurchaseAPI())
  // decl: SKTestSession.simulatedError(forAPI:)
  let _: SKTestFailures.LoadProducts? = await session.simulatedError(forAPI: StoreKitLoadProductsAPI())

  // decl: SKTestSession.TimeRate
  let _: Int = SKTestSession.TimeRate.realTime.rawValue
  // decl: SKTestSession.TimeRate.realTime
  // decl: SKTestSession.TimeRate.monthlyRenewalEveryHour
  // decl: SKTestSession.TimeRate.monthlyRenewalEveryThirtyMinutes
  // decl: SKTestSession.TimeRate.monthlyRenewalEveryFifteenMinutes
  // decl: SKTestSession.TimeRate.monthlyRenewalEveryFiveMinutes
  // decl: SKTestSession.TimeRate.monthlyRenewalEveryThirtySeconds
  // decl: SKTestSession.TimeRate.oneRenewalEveryFifteenMinutes
  // decl: SKTestSession.TimeRate.oneRenewalEveryFiveMinutes
  // decl: SKTestSession.TimeRate.oneRenewalEveryMinute
  // decl: SKTestSession.TimeRate.oneRenewalEveryThirtySeconds
  // decl: SKTestSession.TimeRate.oneRenewalEveryTenSeconds
  // decl: SKTestSession.TimeRate.oneRenewalEveryTwoSeconds
  let _: [SKTestSession.TimeRate] = [
    .realTime, .monthlyRenewalEveryHour, .monthlyRenewalEveryThirtyMinutes, .monthlyRenewalEveryFifteenMinutes,
    .monthlyRenewalEveryFiveMinutes, .monthlyRenewalEveryThirtySeconds, .oneRenewalEveryFifteenMinutes,
    .oneRenewalEveryFiveMinutes, .oneRenewalEveryMinute, .oneRenewalEveryThirtySeconds, .oneRenewalEveryTenSeconds,
    .oneRenewalEveryTwoSeconds,
  ]

  // decl: SKTestTransaction
  let _: NSObject = transaction
  // decl: SKTestTransaction.identifier
  let _: UInt = transaction.identifier
  // decl: SKTestTransaction.originalTransactionIdentifier
  let _: UInt = transaction.originalTransactionIdentifier
  // decl: SKTestTransaction.productIdentifier
  let _: String = transaction.productIdentifier
  // decl: SKTestTransaction.state
  let _: SKPaymentTransactionState = transaction.state
  // decl: SKTestTransaction.purchaseDate
  let _: Date = transaction.purchaseDate
  // decl: SKTestTransaction.cancelDate
  let _: Date? = transaction.cancelDate
  // decl: SKTestTransaction.expirationDate
  let _: Date? = transaction.expirationDate
  // decl: SKTestTransaction.autoRenewingEnabled
  let _: Bool = transaction.autoRenewingEnabled
  // decl: SKTestTransaction.hasPurchaseIssue
  let _: Bool = transaction.hasPurchaseIssue
  // decl: SKTestTransaction.isPendingPriceIncreaseConsent
  let _: Bool = transaction.isPendingPriceIncreaseConsent
  // decl: SKTestTransaction.pendingAskToBuyConfirmation
  let _: Bool = transaction.pendingAskToBuyConfirmation
}

/// Apple's deprecated declarations: a deprecated context names them without a warning.
@available(*, deprecated, message: "names Apple's deprecated StoreKitTest declarations")
func deprecatedStoreKitTestSurface(_ session: SKTestSession) throws {
  // decl: SKTestSession.failTransactionsEnabled
  let _: ReferenceWritableKeyPath<SKTestSession, Bool> = \.failTransactionsEnabled
  // decl: SKTestSession.failureError
  let _: ReferenceWritableKeyPath<SKTestSession, SKError.Code> = \.failureError
  // decl: SKTestSession.buyProduct(productIdentifier:)
  let _: (SKTestSession) -> (String) throws -> Void = SKTestSession.buyProduct(productIdentifier:)
  // decl: SKTestSession.TimeRate.oneHourIsOneDay
  // decl: SKTestSession.TimeRate.thirtyMinutesIsOneDay
  // decl: SKTestSession.TimeRate.fiveMinutesIsOneDay
  // decl: SKTestSession.TimeRate.oneMinuteIsOneDay
  // decl: SKTestSession.TimeRate.thirtySecondsIsOneDay
  // decl: SKTestSession.TimeRate.oneSecondIsOneDay
  let _: [SKTestSession.TimeRate] = [
    .oneHourIsOneDay, .thirtyMinutesIsOneDay, .fiveMinutesIsOneDay, .oneMinuteIsOneDay, .thirtySecondsIsOneDay,
    .oneSecondIsOneDay,
  ]
}

/// Compiled, never called: errors and failures.
func storeKitTestErrorSurface(_ error: any Error) {
  // decl: SKTestError
  let made: SKTestError = SKTestError(.fileNotFound)
  // decl: SKTestError.errorDomain
  let _: String = SKTestError.errorDomain
  // decl: SKTestError.code
  let _: SKTestError.Code = made.code
  // decl: SKTestErrorDomain
  let _: String = SKTestErrorDomain
  // decl: SKTestError.Code
  let _: Int = SKTestError.Code.fileNotFound.rawValue
  // decl: SKTestError.Code.serviceUnavailable
  // decl: SKTestError.Code.invalidProductIdentifier
  // decl: SKTestError.Code.invalidProductType
  // decl: SKTestError.Code.invalidURL
  // decl: SKTestError.Code.fileNotFound
  // decl: SKTestError.Code.noSubscriptionFound
  // decl: SKTestError.Code.noTransactionFound
  // decl: SKTestError.Code.invalidAction
  let _: [SKTestError.Code] = [
    .serviceUnavailable, .invalidProductIdentifier, .invalidProductType, .invalidURL, .fileNotFound, .noSubscriptionFound,
    .noTransactionFound, .invalidAction,
  ]
  // decl: SKTestError.serviceUnavailable
  // decl: SKTestError.invalidProductIdentifier
  // decl: SKTestError.invalidProductType
  // decl: SKTestError.invalidURL
  // decl: SKTestError.fileNotFound
  // decl: SKTestError.noSubscriptionFound
  // decl: SKTestError.noTransactionFound
  // decl: SKTestError.invalidAction
  let _: [SKTestError.Code] = [
    SKTestError.serviceUnavailable, SKTestError.invalidProductIdentifier, SKTestError.invalidProductType, SKTestError.invalidURL,
    SKTestError.fileNotFound, SKTestError.noSubscriptionFound, SKTestError.noTransactionFound, SKTestError.invalidAction,
  ]
  // decl: SKTestError.init(_:userInfo:)
  let _: SKTestError = SKTestError(.invalidAction, userInfo: [NSLocalizedDescriptionKey: "x"])
  // decl: SKTestError.userInfo
  let _: [String: Any] = made.userInfo
  // decl: SKTestError.Code.~=(_:_:)
  switch error {
  case SKTestError.noTransactionFound: break
  default: break
  }

  // decl: SKTestFailure
  func failure<F: SKTestFailure>(_ value: F) -> Bool { value == value }
  // decl: FailableStoreKitAPI
  func api<A: FailableStoreKitAPI>(_ value: A) -> A.Failure.Type { A.Failure.self }
  // decl: SKTestFailures
  // decl: SKTestFailures.LoadProducts
  _ = failure(SKTestFailures.LoadProducts.generic(.unknown))
  // decl: SKTestFailures.Purchase
  _ = failure(SKTestFailures.Purchase.purchase(.invalidQuantity))
  // decl: SKTestFailures.Verification
  _ = failure(SKTestFailures.Verification.verification(.invalidSignature))
  // decl: SKTestFailures.AppStoreSync
  _ = failure(SKTestFailures.AppStoreSync.generic(.unknown))
  // decl: SKTestFailures.SubscriptionStatus
  _ = failure(SKTestFailures.SubscriptionStatus.generic(.unknown))
  // decl: SKTestFailures.AppTransaction
  _ = failure(SKTestFailures.AppTransaction.generic(.unknown))
  // decl: SKTestFailures.ManageSubscriptions
  _ = failure(SKTestFailures.ManageSubscriptions.generic(.unknown))
  // decl: SKTestFailures.RefundRequest
  _ = failure(SKTestFailures.RefundRequest.refundRequest(.duplicateRequest))
  // decl: SKTestFailures.OfferCodeRedeem
  _ = failure(SKTestFailures.OfferCodeRedeem.generic(.unknown))
  // decl: StoreKitLoadProductsAPI
  let _: SKTestFailures.LoadProducts.Type = api(StoreKitLoadProductsAPI())
  // decl: StoreKitPurchaseAPI
  let _: SKTestFailures.Purchase.Type = api(StoreKitPurchaseAPI())
  // decl: StoreKitVerificationAPI
  let _: SKTestFailures.Verification.Type = api(StoreKitVerificationAPI())
  // decl: StoreKitAppStoreSyncAPI
  let _: SKTestFailures.AppStoreSync.Type = api(StoreKitAppStoreSyncAPI())
  // decl: StoreKitSubscriptionStatusAPI
  let _: SKTestFailures.SubscriptionStatus.Type = api(StoreKitSubscriptionStatusAPI())
  // decl: StoreKitAppTransactionAPI
  let _: SKTestFailures.AppTransaction.Type = api(StoreKitAppTransactionAPI())
  // decl: StoreKitManageSubscriptionsAPI
  let _: SKTestFailures.ManageSubscriptions.Type = api(StoreKitManageSubscriptionsAPI())
  // decl: StoreKitRefundRequestAPI
  let _: SKTestFailures.RefundRequest.Type = api(StoreKitRefundRequestAPI())
  // decl: StoreKitOfferCodeRedeemAPI
  let _: SKTestFailures.OfferCodeRedeem.Type = api(StoreKitOfferCodeRedeemAPI())
  // decl: FailableStoreKitAPI.loadProducts
  let _: StoreKitLoadProductsAPI = .loadProducts
  // decl: FailableStoreKitAPI.purchase
  let _: StoreKitPurchaseAPI = .purchase
  // decl: FailableStoreKitAPI.verification
  let _: StoreKitVerificationAPI = .verification
  // decl: FailableStoreKitAPI.appStoreSync
  let _: StoreKitAppStoreSyncAPI = .appStoreSync
  // decl: FailableStoreKitAPI.subscriptionStatus
  let _: StoreKitSubscriptionStatusAPI = .subscriptionStatus
  // decl: FailableStoreKitAPI.appTransaction
  let _: StoreKitAppTransactionAPI = .appTransaction
  // decl: FailableStoreKitAPI.manageSubscriptions
  let _: StoreKitManageSubscriptionsAPI = .manageSubscriptions
  // decl: FailableStoreKitAPI.refundRequest
  let _: StoreKitRefundRequestAPI = .refundRequest
  // decl: FailableStoreKitAPI.offerCodeRedeem
  let _: StoreKitOfferCodeRedeemAPI = .offerCodeRedeem
  let _: any FailableStoreKitAPI<SKTestFailures.Purchase> = StoreKitPurchaseAPI()

  // decl: Product.PurchaseOption.SubscriptionRenewalBehavior
  let behavior: Product.PurchaseOption.SubscriptionRenewalBehavior = .renewUntilNow
  let _: [Product.PurchaseOption.SubscriptionRenewalBehavior] = [behavior, .cancelImmediately]
  // decl: Product.PurchaseOption.promotionalOffer(id:)
  let _: (String) -> Product.PurchaseOption = Product.PurchaseOption.promotionalOffer(id:)
  // decl: Product.PurchaseOption.codeOffer(referenceName:)
  let _: (String) -> Product.PurchaseOption = Product.PurchaseOption.codeOffer(referenceName:)
  // decl: Product.PurchaseOption.purchaseDate(_:renewalBehavior:)
  let _: Product.PurchaseOption = .purchaseDate(Date())
  let _: (Date, Product.PurchaseOption.SubscriptionRenewalBehavior) -> Product.PurchaseOption = Product.PurchaseOption.purchaseDate(_:renewalBehavior:)
}

final class StoreKitTestSurfaceTests: XCTestCase {
  func testRawValuesAreApples() {
    XCTAssertEqual(
      [SKTestSession.TimeRate.realTime, .monthlyRenewalEveryHour, .monthlyRenewalEveryThirtySeconds, .oneRenewalEveryTwoSeconds].map(\.rawValue),
      [0, 10, 15, 1005])
    XCTAssertEqual(SKTestError.Code.allApples.map(\.rawValue), Array(0...7))
  }
}

extension SKTestError.Code {
  /// Apple's codes in `SKTestError.h` order.
  static var allApples: [SKTestError.Code] {
    [.serviceUnavailable, .invalidProductIdentifier, .invalidProductType, .invalidURL, .fileNotFound, .noSubscriptionFound, .noTransactionFound, .invalidAction]
  }
}
