import COpenSSL
import Foundation
import StoreEngine

/// A JWS that passed ``JWSVerifier/verify(_:)``.
public struct VerifiedJWS: Sendable {
  public var jws: CompactJWS
  /// The `x5c` certificates that were checked, leaf first.
  public var chain: [Certificate]
}

/// Verifies StoreKit JWS the way Apple's `SignedDataVerifier` does offline: ES256 signature, an
/// `x5c` chain of exactly 3 to a trusted root under `X509_STRICT`, Apple's two marker OIDs, validity
/// at the payload's `signedDate`, then bundle id and environment.
///
/// For the `Xcode` environment (where Apple's library checks nothing) it checks that the single
/// self-signed certificate made the signature.
public struct JWSVerifier: Sendable {
  public var trustedRoots: [Certificate]
  /// The expected `bundleId`; nil skips the check. Payloads without `bundleId` (renewal infos) pass.
  public var bundleID: String?
  /// The expected `environment`: `Sandbox` or `Xcode`.
  public var environment: String
  /// The validity time for payloads without `signedDate`.
  public var now: @Sendable () -> Date

  public init(
    trustedRoots: [Certificate], bundleID: String?, environment: String = "Sandbox",
    now: @escaping @Sendable () -> Date
  ) {
    self.trustedRoots = trustedRoots
    self.bundleID = bundleID
    self.environment = environment
    self.now = now
  }

  public func verify(_ text: String) throws(JWSVerificationFailure) -> VerifiedJWS {
    let jws: CompactJWS
    do {
      jws = try CompactJWS(text)
    } catch {
      throw .malformed(String(describing: error))
    }
    guard let x5c = jws.header.x5c, !x5c.isEmpty else { throw .missingX5C }
    guard jws.header.alg == "ES256" else { throw .unsupportedAlgorithm(jws.header.alg) }
    let checkedAt = jws.payloadNumber("signedDate").map { Date(timeIntervalSince1970: ($0 / 1000).rounded(.down)) }
      ?? now()

    let chain: [Certificate]
    if environment == "Xcode" {
      chain = try [Self.certificate(x5c, at: 0)]
    } else {
      guard x5c.count == 3 else { throw .chainLength(x5c.count) }
      // Like Apple's library, x5c[2] is never trusted or even read: trust comes from trustedRoots.
      chain = [try Self.certificate(x5c, at: 0), try Self.certificate(x5c, at: 1)]
      try ChainValidation.validate(leaf: chain[0], intermediate: chain[1], roots: trustedRoots, at: checkedAt)
      guard chain[0].hasExtension(oid: CertificateProfile.leafMarkerOID) else {
        throw .missingExtension(oid: CertificateProfile.leafMarkerOID, certificate: chain[0].commonName)
      }
      guard chain[1].hasExtension(oid: CertificateProfile.intermediateMarkerOID) else {
        throw .missingExtension(oid: CertificateProfile.intermediateMarkerOID, certificate: chain[1].commonName)
      }
    }

    guard chain[0].hasP256Key else { throw .unsupportedKey }
    guard let key = X509_get0_pubkey(chain[0].pointer),
      ES256.verify(jws.signature, of: jws.signingInput, with: key)
    else { throw .badSignature }

    if let bundleID, let found = jws.payloadString("bundleId"), found != bundleID {
      throw .wrongBundleID(expected: bundleID, found: found)
    }
    // An app transaction names its environment `receiptType`, as Apple's verifier reads it.
    let foundEnvironment = jws.payloadString("environment") ?? jws.payloadString("receiptType")
    guard foundEnvironment == environment else {
      throw .wrongEnvironment(expected: environment, found: foundEnvironment)
    }
    return VerifiedJWS(jws: jws, chain: chain)
  }

  private static func certificate(_ x5c: [String], at index: Int) throws(JWSVerificationFailure) -> Certificate {
    // Standard base64 only, as Apple's `b64decode(validate=True)`: base64url or PEM text fail.
    guard let der = Data(base64Encoded: x5c[index]), let certificate = try? Certificate(der: der) else {
      throw .invalidCertificate(index: index)
    }
    return certificate
  }
}
