import Foundation

/// A signed value and whether its signature checked out against the store's root certificate.
///
/// `SignedType` is unconstrained, as Apple's is, so generic helpers such as
/// `func checkVerified<T>(_ result: VerificationResult<T>) throws -> T` compile.
@frozen public enum VerificationResult<SignedType> {
  /// The JWS did not verify (e.g. under a simulated verification failure); the payload is still here.
  case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
  /// The JWS verified: signature, certificate chain to the store's root, bundle id.
  case verified(SignedType)

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

extension VerificationResult {
  /// Why a JWS did not verify.
  public enum VerificationError: Error, Equatable, Hashable {
    case revokedCertificate
    case invalidCertificateChain
    case invalidDeviceVerification
    case invalidEncoding
    case invalidSignature
    case missingRequiredProperties
  }
}

extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}
extension VerificationResult: Sendable where SignedType: Sendable {}

extension VerificationResult: CustomDebugStringConvertible where SignedType: CustomDebugStringConvertible {
  /// The payload's description with the verdict, for logs.
  public var debugDescription: String {
    switch self {
    case .verified(let value): "VerificationResult.verified(\(value.debugDescription))"
    case .unverified(let value, let error): "VerificationResult.unverified(\(value.debugDescription), \(error))"
    }
  }
}

extension VerificationResult.VerificationError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .revokedCertificate: "The signing certificate was revoked."
    case .invalidCertificateChain: "The certificate chain is not valid for this data."
    case .invalidDeviceVerification: "The device verification does not match this device."
    case .invalidEncoding: "The signed data is not encoded correctly."
    case .invalidSignature: "The signature does not match the signed data."
    case .missingRequiredProperties: "The signed data is missing properties needed to verify it."
    }
  }

  public var failureReason: String? {
    switch self {
    case .revokedCertificate: "A certificate in the chain has been revoked."
    case .invalidCertificateChain, .missingRequiredProperties: "The certificate chain does not lead to the App Store's root."
    case .invalidDeviceVerification: "The data was signed for another device."
    case .invalidEncoding: "The JWS header or its certificates could not be decoded."
    case .invalidSignature: "The leaf certificate's key did not make this signature."
    }
  }

  public var recoverySuggestion: String? {
    switch self {
    case .revokedCertificate: "Try again later to get newly signed data from the App Store."
    default: "Do not grant content for this unverified data."
    }
  }
}
