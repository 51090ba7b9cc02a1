import Foundation
import StoreKit
internal import StoreEngine

/// A StoreKit API a test session can make fail (`setSimulatedError(_:forAPI:)`), with the failures it
/// can be set to.
public protocol FailableStoreKitAPI<Failure>: Sendable {
  associatedtype Failure: SKTestFailure
}

/// `Product.products(for:)` and `SKProductsRequest`.
public struct StoreKitLoadProductsAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestFailures.LoadProducts
  public init() {}
}

/// `Product.purchase(options:)` and `SKPaymentQueue.add(_:)`.
public struct StoreKitPurchaseAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestFailures.Purchase
  public init() {}
}

/// The verification of signed transactions.
public struct StoreKitVerificationAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestFailures.Verification
  public init() {}
}

/// `AppStore.sync()` and `SKPaymentQueue.restoreCompletedTransactions()`.
public struct StoreKitAppStoreSyncAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestFailures.AppStoreSync
  public init() {}
}

/// The subscription status queries.
public struct StoreKitSubscriptionStatusAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestFailures.SubscriptionStatus
  public init() {}
}

/// `AppTransaction.shared` and `refresh()`.
public struct StoreKitAppTransactionAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestFailures.AppTransaction
  public init() {}
}

/// The manage-subscriptions sheet.
public struct StoreKitManageSubscriptionsAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestFailures.ManageSubscriptions
  public init() {}
}

/// The refund-request sheet.
public struct StoreKitRefundRequestAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestFailures.RefundRequest
  public init() {}
}

/// The offer-code redemption sheet.
public struct StoreKitOfferCodeRedeemAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestFailures.OfferCodeRedeem
  public init() {}
}

extension FailableStoreKitAPI where Self == StoreKitLoadProductsAPI {
  public static var loadProducts: StoreKitLoadProductsAPI { StoreKitLoadProductsAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitPurchaseAPI {
  public static var purchase: StoreKitPurchaseAPI { StoreKitPurchaseAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitVerificationAPI {
  public static var verification: StoreKitVerificationAPI { StoreKitVerificationAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitAppStoreSyncAPI {
  public static var appStoreSync: StoreKitAppStoreSyncAPI { StoreKitAppStoreSyncAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitSubscriptionStatusAPI {
  public static var subscriptionStatus: StoreKitSubscriptionStatusAPI { StoreKitSubscriptionStatusAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitAppTransactionAPI {
  public static var appTransaction: StoreKitAppTransactionAPI { StoreKitAppTransactionAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitManageSubscriptionsAPI {
  public static var manageSubscriptions: StoreKitManageSubscriptionsAPI { StoreKitManageSubscriptionsAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitRefundRequestAPI {
  public static var refundRequest: StoreKitRefundRequestAPI { StoreKitRefundRequestAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitOfferCodeRedeemAPI {
  public static var offerCodeRedeem: StoreKitOfferCodeRedeemAPI { StoreKitOfferCodeRedeemAPI() }
}

extension StoreAPI {
  /// The engine's API of one of Apple's failable API types; nil for a type of the app's own.
  init?(_ api: some FailableStoreKitAPI) {
    switch api {
    case is StoreKitLoadProductsAPI: self = .loadProducts
    case is StoreKitPurchaseAPI: self = .purchase
    case is StoreKitVerificationAPI: self = .verification
    case is StoreKitAppStoreSyncAPI: self = .appStoreSync
    case is StoreKitSubscriptionStatusAPI: self = .subscriptionStatus
    case is StoreKitAppTransactionAPI: self = .appTransaction
    case is StoreKitManageSubscriptionsAPI: self = .manageSubscriptions
    case is StoreKitRefundRequestAPI: self = .refundRequest
    case is StoreKitOfferCodeRedeemAPI: self = .offerCodeRedeem
    default: return nil
    }
  }
}

extension SimulatedFailure {
  /// The engine's failure for a failure code: the error it raises, named as the app sees it.
  init(_ code: _SKTestFailureCode) {
    if code.name.hasPrefix("verification.") {
      // The engine breaks the JWS's signature; the name says which error the app is told.
      self.init(error: StoreEngine.StoreKitError(code: 0, storeKit2Name: code.name))
    } else if let refund = StoreEngine.StoreKitError(refundRequestName: code.name) {
      self.init(error: refund)
    } else {
      self.init(error: StoreEngine.StoreKitError(parsing: code.name) ?? .unknown)
    }
  }

  /// The failure code this failure was set with.
  var code: _SKTestFailureCode {
    if let name = error.storeKit2Name { return _SKTestFailureCode(name) }
    if error.domain == StoreEngine.StoreKitError.refundRequestErrorDomain { return _SKTestFailureCode(error.name) }
    return _SKTestFailureCode(StoreKit2Error(for: error).name)
  }
}
