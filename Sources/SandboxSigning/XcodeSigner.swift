import Foundation
import StoreEngine

/// Signs payloads the way StoreKit Testing in Xcode does, for apps that verify in that mode.
///
/// Header `{"alg":"ES256","kid":"Apple_Xcode_Key","typ":"JWT","x5c":[cert]}` with one self-signed
/// certificate `CN=StoreKit Testing in Xcode` valid for a year; the environment is `Xcode`. Apple's
/// verifier skips signature checks for `Xcode`, so the key is made fresh per process and not stored.
public struct XcodeSigner: TransactionSigner {
  public let environment = "Xcode"
  public let certificate: Certificate
  private let key: PrivateKey

  /// The `kid` Xcode puts in its headers.
  public static let keyID = "Apple_Xcode_Key"
  /// The certificate's subject common name and organization.
  public static let subjectName = "StoreKit Testing in Xcode"

  /// Generates a key and a self-signed certificate valid from `validFrom` for 365 days.
  public init(validFrom: Date) throws {
    let key = try PrivateKey.generateP256()
    let profile = CertificateProfile(
      subject: [("CN", Self.subjectName), ("O", Self.subjectName)],
      notBefore: validFrom, notAfter: validFrom.addingTimeInterval(365 * 86_400),
      basicConstraints: nil, keyUsage: nil, subjectKeyIdentifier: false, authorityKeyIdentifier: false)
    certificate = try profile.issue(for: key, issuer: nil)
    self.key = key
  }

  public func sign(payload: Data) throws -> String {
    try ES256.compactJWS(
      header: JWSHeaderFields(kid: Self.keyID, typ: "JWT", x5c: [certificate.der.base64EncodedString()]),
      payload: payload, key: key)
  }
}
