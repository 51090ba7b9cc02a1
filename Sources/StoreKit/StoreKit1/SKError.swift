import Foundation

/// The error domain of StoreKit's errors.
public let SKErrorDomain: String = "SKErrorDomain"

/// An error StoreKit 1 reports: an ``SKError/Code`` in ``SKErrorDomain``.
///
/// `error as? SKError`, `(error as NSError).code` and `SKError.paymentCancelled.rawValue` work as
/// with Apple's StoreKit.
public struct SKError: Error, Hashable, CustomNSError, LocalizedError, Sendable {
  /// The codes of `SKErrorDomain`, with Apple's raw values.
  public enum Code: Int, Sendable, Hashable, CaseIterable {
    case unknown = 0
    case clientInvalid = 1
    case paymentCancelled = 2
    case paymentInvalid = 3
    case paymentNotAllowed = 4
    case storeProductNotAvailable = 5
    case cloudServicePermissionDenied = 6
    case cloudServiceNetworkConnectionFailed = 7
    case cloudServiceRevoked = 8
    case privacyAcknowledgementRequired = 9
    case unauthorizedRequestData = 10
    case invalidOfferIdentifier = 11
    case invalidSignature = 12
    case missingOfferParams = 13
    case invalidOfferPrice = 14
    case overlayCancelled = 15
    case overlayInvalidConfiguration = 16
    case overlayTimeout = 17
    case ineligibleForOffer = 18
    case unsupportedPlatform = 19
    case overlayPresentedInBackgroundScene = 20
  }

  public let code: Code
  private let message: String?

  public init(_ code: Code, message: String? = nil) {
    self.code = code
    self.message = message
  }

  public static var errorDomain: String { SKErrorDomain }
  public var errorCode: Int { code.rawValue }
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: localizedDescriptionText] }
  public var errorDescription: String? { localizedDescriptionText }

  private var localizedDescriptionText: String {
    if let message { return message }
    switch code {
    case .paymentCancelled: return "Payment cancelled."
    case .paymentInvalid: return "The payment is invalid."
    case .paymentNotAllowed: return "This device is not allowed to make the payment."
    case .storeProductNotAvailable: return "The product is not available in the current storefront."
    case .cloudServiceNetworkConnectionFailed: return "Cannot connect to iTunes Store."
    case .invalidOfferIdentifier: return "The offer identifier is invalid."
    case .invalidSignature: return "The signature in a payment discount is invalid."
    case .missingOfferParams: return "Parameters are missing in a payment discount."
    case .ineligibleForOffer: return "The user is not eligible for the offer."
    default: return "Cannot connect to iTunes Store."
    }
  }

  public static var unknown: Code { .unknown }
  public static var clientInvalid: Code { .clientInvalid }
  public static var paymentCancelled: Code { .paymentCancelled }
  public static var paymentInvalid: Code { .paymentInvalid }
  public static var paymentNotAllowed: Code { .paymentNotAllowed }
  public static var storeProductNotAvailable: Code { .storeProductNotAvailable }
  public static var cloudServicePermissionDenied: Code { .cloudServicePermissionDenied }
  public static var cloudServiceNetworkConnectionFailed: Code { .cloudServiceNetworkConnectionFailed }
  public static var cloudServiceRevoked: Code { .cloudServiceRevoked }
  public static var privacyAcknowledgementRequired: Code { .privacyAcknowledgementRequired }
  public static var unauthorizedRequestData: Code { .unauthorizedRequestData }
  public static var invalidOfferIdentifier: Code { .invalidOfferIdentifier }
  public static var invalidSignature: Code { .invalidSignature }
  public static var missingOfferParams: Code { .missingOfferParams }
  public static var invalidOfferPrice: Code { .invalidOfferPrice }
  public static var overlayCancelled: Code { .overlayCancelled }
  public static var overlayInvalidConfiguration: Code { .overlayInvalidConfiguration }
  public static var overlayTimeout: Code { .overlayTimeout }
  public static var ineligibleForOffer: Code { .ineligibleForOffer }
  public static var unsupportedPlatform: Code { .unsupportedPlatform }
  public static var overlayPresentedInBackgroundScene: Code { .overlayPresentedInBackgroundScene }

  public static func == (lhs: SKError, rhs: SKError) -> Bool { lhs.code == rhs.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
