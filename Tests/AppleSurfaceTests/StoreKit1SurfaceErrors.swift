// Apple's SKError as Swift imports it (a bridged, stored NSError), named with Apple's signatures
// (declarations/storekit1.txt).
import Foundation
import StoreKit

/// Compiled, never called: each line type-checks one declaration against Apple's signature.
func storeKit1ErrorSurface(_ thrown: Error) {
  // decl: SKError
  let error: SKError = SKError(.unknown)
  let _: Error = error
  let _: any Hashable = error
  let _: any CustomNSError = error
  // decl: SKErrorDomain
  let _: String = SKErrorDomain
  // decl: SKError.errorDomain
  let _: String = SKError.errorDomain
  // decl: SKError.code
  let _: SKError.Code = error.code
  // decl: SKError.init(_:userInfo:)
  let _: SKError = SKError(.paymentCancelled, userInfo: ["key": "value"])
  // decl: SKError.init(_nsError:)
  let _: SKError = SKError(_nsError: NSError(domain: SKErrorDomain, code: 2))
  // decl: SKError.userInfo
  let _: [String: Any] = error.userInfo
  // decl: SKError.Code.~=(_:_:)
  switch thrown {
  case SKError.paymentCancelled: break
  default: break
  }
  do { throw thrown } catch SKError.storeProductNotAvailable {} catch {}
  // decl: SKError.Code
  let _: Int = SKError.Code.unknown.rawValue
  let _: SKError.Code? = SKError.Code(rawValue: 20)
  // decl: SKError.Code.unknown
  let _: SKError.Code = .unknown
  // decl: SKError.Code.clientInvalid
  let _: SKError.Code = .clientInvalid
  // decl: SKError.Code.paymentCancelled
  let _: SKError.Code = .paymentCancelled
  // decl: SKError.Code.paymentInvalid
  let _: SKError.Code = .paymentInvalid
  // decl: SKError.Code.paymentNotAllowed
  let _: SKError.Code = .paymentNotAllowed
  // decl: SKError.Code.storeProductNotAvailable
  let _: SKError.Code = .storeProductNotAvailable
  // decl: SKError.Code.cloudServicePermissionDenied
  let _: SKError.Code = .cloudServicePermissionDenied
  // decl: SKError.Code.cloudServiceNetworkConnectionFailed
  let _: SKError.Code = .cloudServiceNetworkConnectionFailed
  // decl: SKError.Code.cloudServiceRevoked
  let _: SKError.Code = .cloudServiceRevoked
  // decl: SKError.Code.privacyAcknowledgementRequired
  let _: SKError.Code = .privacyAcknowledgementRequired
  // decl: SKError.Code.unauthorizedRequestData
  let _: SKError.Code = .unauthorizedRequestData
  // decl: SKError.Code.invalidOfferIdentifier
  let _: SKError.Code = .invalidOfferIdentifier
  // decl: SKError.Code.invalidSignature
  let _: SKError.Code = .invalidSignature
  // decl: SKError.Code.missingOfferParams
  let _: SKError.Code = .missingOfferParams
  // decl: SKError.Code.invalidOfferPrice
  let _: SKError.Code = .invalidOfferPrice
  // decl: SKError.Code.overlayCancelled
  let _: SKError.Code = .overlayCancelled
  // decl: SKError.Code.overlayInvalidConfiguration
  let _: SKError.Code = .overlayInvalidConfiguration
  // decl: SKError.Code.overlayTimeout
  let _: SKError.Code = .overlayTimeout
  // decl: SKError.Code.ineligibleForOffer
  let _: SKError.Code = .ineligibleForOffer
  // decl: SKError.Code.unsupportedPlatform
  let _: SKError.Code = .unsupportedPlatform
  // decl: SKError.Code.overlayPresentedInBackgroundScene
  let _: SKError.Code = .overlayPresentedInBackgroundScene
  // decl: SKError.unknown
  let _: SKError.Code = SKError.unknown
  // decl: SKError.clientInvalid
  let _: SKError.Code = SKError.clientInvalid
  // decl: SKError.paymentCancelled
  let _: SKError.Code = SKError.paymentCancelled
  // decl: SKError.paymentInvalid
  let _: SKError.Code = SKError.paymentInvalid
  // decl: SKError.paymentNotAllowed
  let _: SKError.Code = SKError.paymentNotAllowed
  // decl: SKError.storeProductNotAvailable
  let _: SKError.Code = SKError.storeProductNotAvailable
  // decl: SKError.cloudServicePermissionDenied
  let _: SKError.Code = SKError.cloudServicePermissionDenied
  // decl: SKError.cloudServiceNetworkConnectionFailed
  let _: SKError.Code = SKError.cloudServiceNetworkConnectionFailed
  // decl: SKError.cloudServiceRevoked
  let _: SKError.Code = SKError.cloudServiceRevoked
  // decl: SKError.privacyAcknowledgementRequired
  let _: SKError.Code = SKError.privacyAcknowledgementRequired
  // decl: SKError.unauthorizedRequestData
  let _: SKError.Code = SKError.unauthorizedRequestData
  // decl: SKError.invalidOfferIdentifier
  let _: SKError.Code = SKError.invalidOfferIdentifier
  // decl: SKError.invalidSignature
  let _: SKError.Code = SKError.invalidSignature
  // decl: SKError.missingOfferParams
  let _: SKError.Code = SKError.missingOfferParams
  // decl: SKError.invalidOfferPrice
  let _: SKError.Code = SKError.invalidOfferPrice
  // decl: SKError.overlayCancelled
  let _: SKError.Code = SKError.overlayCancelled
  // decl: SKError.overlayInvalidConfiguration
  let _: SKError.Code = SKError.overlayInvalidConfiguration
  // decl: SKError.overlayTimeout
  let _: SKError.Code = SKError.overlayTimeout
  // decl: SKError.ineligibleForOffer
  let _: SKError.Code = SKError.ineligibleForOffer
  // decl: SKError.unsupportedPlatform
  let _: SKError.Code = SKError.unsupportedPlatform
  // decl: SKError.overlayPresentedInBackgroundScene
  let _: SKError.Code = SKError.overlayPresentedInBackgroundScene
}
