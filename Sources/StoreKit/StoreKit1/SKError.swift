import Foundation

/// The error domain of StoreKit's errors.
public let SKErrorDomain: String = "SKErrorDomain"

/// An error StoreKit 1 reports: an ``SKError/Code`` in ``SKErrorDomain``, stored as the `NSError` it
/// bridges to, as Swift imports Apple's (a `_BridgedStoredNSError`, like Foundation's `URLError`).
///
/// So `catch SKError.paymentCancelled`, `case SKError.paymentCancelled` on any `Error`,
/// `SKError(_nsError:)`, `error as? SKError` and `(error as NSError).code` work as on Apple's
/// platforms, and the `NSError` an app builds round-trips with its `userInfo`.
public struct SKError: _BridgedStoredNSError, @unchecked Sendable {
  /// The `NSError` this error is (domain ``SKErrorDomain``). Immutable once made.
  public let _nsError: NSError

  /// Wraps an `NSError` of ``SKErrorDomain`` (Apple's precondition; another domain reads as `unknown`).
  public init(_nsError error: NSError) {
    _nsError = error
  }

  public static var _nsErrorDomain: String { SKErrorDomain }

  /// The codes of `SKErrorDomain`, with Apple's raw values.
  public enum Code: Int, _ErrorCodeProtocol, Sendable, Hashable, CaseIterable {
    public typealias _ErrorType = SKError

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

  /// The error's code; a code this library does not know (another domain's `NSError`) reads as `unknown`.
  public var code: Code { Code(rawValue: _nsError.code) ?? .unknown }

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
}

/// `error as? SKError` on an `NSError` of ``SKErrorDomain`` (and `catch SKError.paymentCancelled`
/// on one): Linux has no Objective-C bridge for errors, so the cast goes through this conformance,
/// as Foundation's `CocoaError` does.
extension SKError: _ObjectiveCBridgeable {
  public func _bridgeToObjectiveC() -> NSError { _nsError }

  public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout SKError?) {
    result = SKError(_nsError: source)
  }

  public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout SKError?) -> Bool {
    result = source.domain == SKErrorDomain ? SKError(_nsError: source) : nil
    return result != nil
  }

  public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> SKError {
    SKError(_nsError: source ?? NSError(domain: SKErrorDomain, code: Code.unknown.rawValue))
  }
}

extension SKError {
  /// An error the store reports, with StoreKit's text for it in `NSLocalizedDescriptionKey` (so
  /// `localizedDescription` tells the user what happened, as the errors StoreKit makes do).
  init(_ code: Code, message: String) {
    self.init(code, userInfo: [NSLocalizedDescriptionKey: message])
  }

  /// An error the store reports, with StoreKit's text for its code.
  static func reported(_ code: Code) -> SKError {
    SKError(code, message: storeText(for: code))
  }

  /// The text StoreKit's own errors carry for `code`.
  static func storeText(for code: Code) -> String {
    switch code {
    case .paymentCancelled: "Payment cancelled."
    case .paymentInvalid: "The payment is invalid."
    case .paymentNotAllowed: "This device is not allowed to make the payment."
    case .storeProductNotAvailable: "The product is not available in the current storefront."
    case .invalidOfferIdentifier: "The offer identifier is invalid."
    case .invalidSignature: "The signature in a payment discount is invalid."
    case .missingOfferParams: "Parameters are missing in a payment discount."
    case .invalidOfferPrice: "The price of the offer is not valid."
    case .ineligibleForOffer: "The user is not eligible for the offer."
    case .clientInvalid: "The client is not allowed to issue the request."
    case .unauthorizedRequestData: "The app is not entitled to use requestData."
    case .privacyAcknowledgementRequired: "The user has not acknowledged Apple's privacy policy."
    default: "Cannot connect to iTunes Store."
    }
  }
}
