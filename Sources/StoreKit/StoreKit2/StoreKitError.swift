import Foundation

/// An error StoreKit 2 throws.
public enum StoreKitError: Error, LocalizedError, Sendable {
  case unknown
  /// The user cancelled (a simulated error; the user's own Cancel is `PurchaseResult.userCancelled`).
  case userCancelled
  case networkError(URLError)
  case systemError(any Error)
  case notAvailableInStorefront
  case notEntitled
  case unsupported

  /// The case named `name` (a ``StoreEngine`` StoreKit 2 error name).
  init(name: String) {
    switch name {
    case "userCancelled": self = .userCancelled
    case "networkError": self = .networkError(URLError(.notConnectedToInternet))
    case "systemError": self = .systemError(CocoaError(.featureUnsupported))
    case "notAvailableInStorefront": self = .notAvailableInStorefront
    case "notEntitled": self = .notEntitled
    case "unsupported": self = .unsupported
    default: self = .unknown
    }
  }

  public var errorDescription: String? {
    switch self {
    case .unknown: "An unknown error occurred."
    case .userCancelled: "The user cancelled."
    case .networkError(let error): "A network error occurred: \(error.localizedDescription)"
    case .systemError(let error): "A system error occurred: \(error.localizedDescription)"
    case .notAvailableInStorefront: "The product is not available in the current storefront."
    case .notEntitled: "The app is not entitled to this."
    case .unsupported: "This is not supported."
    }
  }
}
