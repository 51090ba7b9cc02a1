import Foundation

/// A signed value and whether its signature checked out against the store's root certificate.
public enum VerificationResult<SignedType: Sendable>: Sendable {
  /// The JWS verified: signature, certificate chain to the sandbox root, bundle id.
  case verified(SignedType)
  /// The JWS did not verify (e.g. under a simulated verification failure); the payload is still here.
  case unverified(SignedType, VerificationResult<SignedType>.VerificationError)

  /// Why a JWS did not verify.
  public enum VerificationError: Error, Sendable, Hashable {
    case revokedCertificate
    case invalidCertificateChain
    case invalidDeviceVerification
    case invalidEncoding
    case invalidSignature
    case missingRequiredProperties
  }

  /// The payload, or the verification error.
  public var payloadValue: SignedType {
    get throws {
      switch self {
      case .verified(let value): return value
      case .unverified(_, let error): throw error
      }
    }
  }

  /// The payload whether or not it verified.
  public var unsafePayloadValue: SignedType {
    switch self {
    case .verified(let value), .unverified(let value, _): value
    }
  }
}

extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}

extension VerificationResult where SignedType == Transaction {
  /// The transaction's JWS, as the App Store signed it (it passes Apple's `SignedDataVerifier` with
  /// the data directory's root certificate).
  public var jwsRepresentation: String { unsafePayloadValue.jws }
}

extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
  /// The renewal info's JWS.
  public var jwsRepresentation: String { unsafePayloadValue.jws }
}
