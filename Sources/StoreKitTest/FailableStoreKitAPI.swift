import Foundation
import StoreKit
internal import StoreEngine

/// A StoreKit API a test session can make fail (`setSimulatedError(_:forAPI:)`).
public protocol FailableStoreKitAPI: Sendable {
  /// The errors the API can be made to fail with.
  associatedtype Failure: Sendable
  /// The engine's name of the API (not API: the underscore says so).
  var _engineName: String { get }
  /// The engine's error for a failure.
  func _engineError(_ failure: Failure) -> String
  /// The failure a StoreKit 2 error stands for (`simulatedError(forAPI:)` reads errors back so).
  func _failure(_ error: any Error) -> Failure?
}

extension StoreKit.StoreKitError {
  /// The case's name, as the engine spells StoreKit 2 errors.
  var caseName: String {
    switch self {
    case .unknown: "unknown"
    case .userCancelled: "userCancelled"
    case .networkError: "networkError"
    case .systemError: "systemError"
    case .notAvailableInStorefront: "notAvailableInStorefront"
    case .notEntitled: "notEntitled"
    case .unsupported: "unsupported"
    }
  }
}

/// The failures every API but verification has.
public enum SKTestGenericFailure: Sendable {
  case generic(StoreKit.StoreKitError)
}

/// `Product.products(for:)` and `SKProductsRequest`.
public struct StoreKitLoadProductsAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestGenericFailure
  public var _engineName: String { StoreAPI.loadProducts.rawValue }
  public func _engineError(_ failure: Failure) -> String {
    switch failure { case .generic(let error): error.caseName }
  }
  public func _failure(_ error: any Error) -> Failure? { SKTestGenericFailure(error) }
}

/// `purchase(options:)` and `SKPaymentQueue.add(_:)`.
public struct StoreKitPurchaseAPI: FailableStoreKitAPI {
  public enum Failure: Sendable {
    case generic(StoreKit.StoreKitError)
    case purchase(StoreKit.Product.PurchaseError)
  }
  public var _engineName: String { StoreAPI.purchase.rawValue }
  public func _engineError(_ failure: Failure) -> String {
    switch failure {
    case .generic(let error): error.caseName
    case .purchase(let error): "\(error)"
    }
  }
  public func _failure(_ error: any Error) -> Failure? {
    if let error = error as? StoreKit.Product.PurchaseError { return .purchase(error) }
    return (error as? StoreKit.StoreKitError).map { .generic($0) }
  }
}

/// The verification of transactions (their JWS then fails to verify).
public struct StoreKitVerificationAPI: FailableStoreKitAPI {
  public enum Failure: Sendable {
    case verification(VerificationResult<Transaction>.VerificationError)
  }
  public var _engineName: String { StoreAPI.verification.rawValue }
  public func _engineError(_ failure: Failure) -> String { "unknown" }
  /// A failed verification breaks the JWS's signature, whichever error was set.
  public func _failure(_ error: any Error) -> Failure? { .verification(.invalidSignature) }
}

/// An API whose only failures are `StoreKit.StoreKitError`s.
public struct StoreKitGenericAPI: FailableStoreKitAPI {
  public typealias Failure = SKTestGenericFailure
  let api: StoreAPI
  public var _engineName: String { api.rawValue }
  public func _engineError(_ failure: Failure) -> String {
    switch failure { case .generic(let error): error.caseName }
  }
  public func _failure(_ error: any Error) -> Failure? { SKTestGenericFailure(error) }
}

extension SKTestGenericFailure {
  init?(_ error: any Error) {
    guard let error = error as? StoreKit.StoreKitError else { return nil }
    self = .generic(error)
  }
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

extension FailableStoreKitAPI where Self == StoreKitGenericAPI {
  /// `AppStore.sync()` and `restoreCompletedTransactions()`.
  public static var appStoreSync: StoreKitGenericAPI { StoreKitGenericAPI(api: .appStoreSync) }
  /// `Product.SubscriptionInfo.status`.
  public static var subscriptionStatus: StoreKitGenericAPI { StoreKitGenericAPI(api: .subscriptionStatus) }
  public static var appTransaction: StoreKitGenericAPI { StoreKitGenericAPI(api: .appTransaction) }
  public static var manageSubscriptions: StoreKitGenericAPI { StoreKitGenericAPI(api: .manageSubscriptions) }
  public static var refundRequest: StoreKitGenericAPI { StoreKitGenericAPI(api: .refundRequest) }
  public static var offerCodeRedeem: StoreKitGenericAPI { StoreKitGenericAPI(api: .offerCodeRedeem) }
}
