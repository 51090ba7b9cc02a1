import Foundation
import StoreKit

/// The error a simulated failure stands for, as the engine spells it: a `StoreKitError`,
/// `Product.PurchaseError` or `Transaction.RefundRequestError` case name (`networkError`,
/// `invalidQuantity`, `duplicateRequest`) or a verification error (`verification.invalidSignature`).
///
/// Apple's is opaque too; two failures are equal when their codes are.
public struct _SKTestFailureCode: Equatable, Hashable, Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

/// An error a test session can make one StoreKit API fail with.
public protocol SKTestFailure: Equatable, Sendable {
  init?(_fromErrorCode code: _SKTestFailureCode)
  var _errorCode: _SKTestFailureCode { get }
}

extension SKTestFailure {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs._errorCode == rhs._errorCode }
}

/// The failures each failable StoreKit API can be set to (`SKTestSession.setSimulatedError(_:forAPI:)`).
public enum SKTestFailures {
  /// `Product.products(for:)` and `SKProductsRequest`.
  public enum LoadProducts: SKTestFailure {
    case generic(StoreKitError)
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      guard let error = StoreKitError(failureName: code.name) else { return nil }
      self = .generic(error)
    }
    public var _errorCode: _SKTestFailureCode {
      switch self { case .generic(let error): _SKTestFailureCode(error.failureName) }
    }
  }

  /// `Product.purchase(options:)` and `SKPaymentQueue.add(_:)`.
  public enum Purchase: SKTestFailure {
    case generic(StoreKitError)
    case purchase(Product.PurchaseError)
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      if let error = Product.PurchaseError(failureName: code.name) {
        self = .purchase(error)
      } else if let error = StoreKitError(failureName: code.name) {
        self = .generic(error)
      } else {
        return nil
      }
    }
    public var _errorCode: _SKTestFailureCode {
      switch self {
      case .generic(let error): _SKTestFailureCode(error.failureName)
      case .purchase(let error): _SKTestFailureCode("\(error)")
      }
    }
  }

  /// The verification of signed transactions: they arrive `.unverified` with the error.
  public enum Verification: SKTestFailure {
    case verification(VerificationResult<Any>.VerificationError)
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      let prefix = "verification."
      guard code.name.hasPrefix(prefix) else { return nil }
      let name = String(code.name.dropFirst(prefix.count))
      guard let error = VerificationResult<Any>.VerificationError.allNamed[name] else { return nil }
      self = .verification(error)
    }
    public var _errorCode: _SKTestFailureCode {
      switch self { case .verification(let error): _SKTestFailureCode("verification.\(error)") }
    }
  }

  /// `AppStore.sync()` and `SKPaymentQueue.restoreCompletedTransactions()`.
  public enum AppStoreSync: SKTestFailure {
    case generic(StoreKitError)
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      guard let error = StoreKitError(failureName: code.name) else { return nil }
      self = .generic(error)
    }
    public var _errorCode: _SKTestFailureCode {
      switch self { case .generic(let error): _SKTestFailureCode(error.failureName) }
    }
  }

  /// `Product.SubscriptionInfo.status` and its relatives.
  public enum SubscriptionStatus: SKTestFailure {
    case generic(StoreKitError)
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      guard let error = StoreKitError(failureName: code.name) else { return nil }
      self = .generic(error)
    }
    public var _errorCode: _SKTestFailureCode {
      switch self { case .generic(let error): _SKTestFailureCode(error.failureName) }
    }
  }

  /// `AppTransaction.shared` and `AppTransaction.refresh()`.
  public enum AppTransaction: SKTestFailure {
    case generic(StoreKitError)
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      guard let error = StoreKitError(failureName: code.name) else { return nil }
      self = .generic(error)
    }
    public var _errorCode: _SKTestFailureCode {
      switch self { case .generic(let error): _SKTestFailureCode(error.failureName) }
    }
  }

  /// The manage-subscriptions sheet.
  public enum ManageSubscriptions: SKTestFailure {
    case generic(StoreKitError)
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      guard let error = StoreKitError(failureName: code.name) else { return nil }
      self = .generic(error)
    }
    public var _errorCode: _SKTestFailureCode {
      switch self { case .generic(let error): _SKTestFailureCode(error.failureName) }
    }
  }

  /// The refund-request sheet.
  public enum RefundRequest: SKTestFailure {
    case generic(StoreKitError)
    case refundRequest(Transaction.RefundRequestError)
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      switch code.name {
      case "duplicateRequest": self = .refundRequest(.duplicateRequest)
      case "failed": self = .refundRequest(.failed)
      default:
        guard let error = StoreKitError(failureName: code.name) else { return nil }
        self = .generic(error)
      }
    }
    public var _errorCode: _SKTestFailureCode {
      switch self {
      case .generic(let error): _SKTestFailureCode(error.failureName)
      case .refundRequest(.duplicateRequest): _SKTestFailureCode("duplicateRequest")
      case .refundRequest: _SKTestFailureCode("failed")
      }
    }
  }

  /// The offer-code redemption sheet.
  public enum OfferCodeRedeem: SKTestFailure {
    case generic(StoreKitError)
    public init?(_fromErrorCode code: _SKTestFailureCode) {
      guard let error = StoreKitError(failureName: code.name) else { return nil }
      self = .generic(error)
    }
    public var _errorCode: _SKTestFailureCode {
      switch self { case .generic(let error): _SKTestFailureCode(error.failureName) }
    }
  }
}

extension StoreKitError {
  /// The case's name, as the engine spells StoreKit 2 errors.
  var failureName: String {
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

  /// The case named `name`; the payload of `networkError` and `systemError` is the one the engine
  /// raises for them (Apple's failure codes do not carry it either).
  init?(failureName name: String) {
    switch name {
    case "unknown": self = .unknown
    case "userCancelled": self = .userCancelled
    case "networkError": self = .networkError(URLError(.notConnectedToInternet))
    case "systemError": self = .systemError(CocoaError(.featureUnsupported))
    case "notAvailableInStorefront": self = .notAvailableInStorefront
    case "notEntitled": self = .notEntitled
    case "unsupported": self = .unsupported
    default: return nil
    }
  }
}

extension Product.PurchaseError {
  init?(failureName name: String) {
    let all: [Product.PurchaseError] = [
      .invalidQuantity, .productUnavailable, .purchaseNotAllowed, .ineligibleForOffer, .invalidOfferIdentifier,
      .invalidOfferPrice, .invalidOfferSignature, .missingOfferParameters,
    ]
    guard let found = all.first(where: { "\($0)" == name }) else { return nil }
    self = found
  }
}

extension VerificationResult.VerificationError {
  /// Every case by name.
  static var allNamed: [String: Self] {
    let all: [Self] = [
      .revokedCertificate, .invalidCertificateChain, .invalidDeviceVerification, .invalidEncoding, .invalidSignature,
      .missingRequiredProperties,
    ]
    return Dictionary(uniqueKeysWithValues: all.map { ("\($0)", $0) })
  }
}
