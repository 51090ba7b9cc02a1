import Foundation

/// Why a JWS did not verify, in the order the checks run (the order of Apple's `SignedDataVerifier`).
public enum JWSVerificationFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not a compact JWS: wrong segment count, bad base64url, or a header/payload that is not JSON.
  case malformed(String)
  /// The header has no `x5c` certificates.
  case missingX5C
  /// The header's `alg` is not `ES256`.
  case unsupportedAlgorithm(String?)
  /// `x5c` does not hold exactly 3 certificates (leaf, intermediate, root).
  case chainLength(Int)
  /// `x5c[index]` is not standard base64 of a DER certificate.
  case invalidCertificate(index: Int)
  /// The chain does not lead to any trusted root.
  case unknownRoot
  /// A certificate of the chain had expired at the payload's `signedDate`.
  case expired(certificate: String, at: Date)
  /// A certificate of the chain was not yet valid at the payload's `signedDate`.
  case notYetValid(certificate: String, at: Date)
  /// Any other chain failure, with OpenSSL's reason.
  case invalidChain(String)
  /// A certificate lacks Apple's marker extension (`1.2.840.113635.100.6.11.1` on the leaf,
  /// `1.2.840.113635.100.6.2.1` on the intermediate).
  case missingExtension(oid: String, certificate: String)
  /// The signature does not match header and payload: the JWS was altered, or signed with
  /// another key than its leaf certificate's.
  case badSignature
  /// The leaf's key is not P-256, so it cannot make an ES256 signature.
  case unsupportedKey
  /// The payload's `bundleId` is not the expected one.
  case wrongBundleID(expected: String, found: String)
  /// The payload's `environment` is not the expected one (or is missing).
  case wrongEnvironment(expected: String, found: String?)

  /// A short, stable name for scripts and tests (`tampered`, `unknownRoot`, …).
  public var name: String {
    switch self {
    case .malformed: "malformed"
    case .missingX5C: "missingX5C"
    case .unsupportedAlgorithm: "unsupportedAlgorithm"
    case .chainLength: "chainLength"
    case .invalidCertificate: "invalidCertificate"
    case .unknownRoot: "unknownRoot"
    case .expired: "expired"
    case .notYetValid: "notYetValid"
    case .invalidChain: "invalidChain"
    case .missingExtension: "missingExtension"
    case .badSignature: "tampered"
    case .unsupportedKey: "unsupportedKey"
    case .wrongBundleID: "wrongBundleID"
    case .wrongEnvironment: "wrongEnvironment"
    }
  }

  /// The `VerificationStatus` Apple's `SignedDataVerifier` reports for the same JWS
  /// (1 verification failure, 2 invalid app identifier, 3 invalid certificate, 4 invalid chain
  /// length, 6 invalid environment).
  public var appleVerificationStatus: Int {
    switch self {
    case .wrongBundleID: 2
    case .invalidCertificate: 3
    case .chainLength: 4
    case .wrongEnvironment: 6
    case .malformed, .missingX5C, .unsupportedAlgorithm, .unknownRoot, .expired, .notYetValid, .invalidChain,
      .missingExtension, .badSignature, .unsupportedKey:
      1
    }
  }

  public var description: String {
    switch self {
    case .malformed(let detail):
      return detail
    case .missingX5C:
      return "the header has no x5c certificate chain; StoreKit JWS carry [leaf, intermediate, root]"
    case .unsupportedAlgorithm(let alg):
      return "unsupported algorithm '\(alg ?? "none")'; StoreKit JWS are signed ES256"
    case .chainLength(let count):
      return "the x5c chain has \(count) certificate\(count == 1 ? "" : "s"); StoreKit uses exactly 3 "
        + "(leaf, intermediate, root)"
    case .invalidCertificate(let index):
      return "x5c[\(index)] is not a standard-base64 DER certificate"
    case .unknownRoot:
      return "unknown root: the chain does not lead to the trusted root certificate; pass the root of the "
        + "data directory that signed it with --root"
    case .expired(let certificate, let date):
      return "certificate '\(certificate)' had expired at the signedDate \(Self.format(date))"
    case .notYetValid(let certificate, let date):
      return "certificate '\(certificate)' was not yet valid at the signedDate \(Self.format(date))"
    case .invalidChain(let reason):
      return "invalid certificate chain: \(reason)"
    case .missingExtension(let oid, let certificate):
      return "certificate '\(certificate)' lacks Apple's extension \(oid)"
    case .badSignature:
      return "tampered: the signature does not match the header and payload (the JWS was altered, "
        + "or signed with another key)"
    case .unsupportedKey:
      return "the leaf certificate's key is not P-256, so it cannot verify an ES256 signature"
    case .wrongBundleID(let expected, let found):
      return "wrong bundle id: the payload has '\(found)', expected '\(expected)' (set it with --bundle-id)"
    case .wrongEnvironment(let expected, let found):
      return "wrong environment: the payload has " + (found.map { "'\($0)'" } ?? "none")
        + ", expected '\(expected)'"
    }
  }

  private static func format(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}
