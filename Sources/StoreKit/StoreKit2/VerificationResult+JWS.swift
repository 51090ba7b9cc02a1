import Foundation
internal import StoreEngine

/// The parts of a compact JWS, decoded once per access (an unreadable JWS gives empty parts, as a
/// value that did not verify with `.invalidEncoding` would carry).
struct JWSParts {
  var header = Data()
  var payload = Data()
  var signature = Data()
  var signedData = Data()

  init(_ jws: String) {
    guard let decoded = try? CompactJWS(jws) else { return }
    header = decoded.headerData
    payload = decoded.payloadData
    signature = decoded.signature
    signedData = decoded.signingInput
  }
}

extension VerificationResult where SignedType == Transaction {
  /// The transaction's JWS, as the App Store signed it (it passes Apple's `SignedDataVerifier` with
  /// the data directory's root certificate).
  public var jwsRepresentation: String { unsafePayloadValue.jws }
  /// The JWS header's JSON (`alg`, `x5c`).
  public var headerData: Data { JWSParts(jwsRepresentation).header }
  /// The JWS payload's JSON.
  public var payloadData: Data { JWSParts(jwsRepresentation).payload }
  /// The JWS signature's bytes (ES256: `r` then `s`, 32 bytes each).
  public var signatureData: Data { JWSParts(jwsRepresentation).signature }
  /// The signature as a value with CryptoKit's representations (see ``P256``).
  public var signature: P256.Signing.ECDSASignature { P256.Signing.ECDSASignature(jwsSignature: signatureData) }
  /// The bytes the signature covers: `header.payload`, base64url, as ASCII.
  public var signedData: Data { JWSParts(jwsRepresentation).signedData }
  /// When the store signed this JWS.
  public var signedDate: Date { unsafePayloadValue.signedDate }
  /// SHA-384 of the nonce and ``AppStore/deviceVerificationID``, as signed.
  public var deviceVerification: Data { unsafePayloadValue.deviceVerification }
  public var deviceVerificationNonce: UUID { unsafePayloadValue.deviceVerificationNonce }
}

extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
  /// The renewal info's JWS, as the App Store signed it.
  public var jwsRepresentation: String { unsafePayloadValue.jws }
  /// The JWS header's JSON (`alg`, `x5c`).
  public var headerData: Data { JWSParts(jwsRepresentation).header }
  /// The JWS payload's JSON.
  public var payloadData: Data { JWSParts(jwsRepresentation).payload }
  /// The JWS signature's bytes (ES256: `r` then `s`, 32 bytes each).
  public var signatureData: Data { JWSParts(jwsRepresentation).signature }
  /// The signature as a value with CryptoKit's representations (see ``P256``).
  public var signature: P256.Signing.ECDSASignature { P256.Signing.ECDSASignature(jwsSignature: signatureData) }
  /// The bytes the signature covers: `header.payload`, base64url, as ASCII.
  public var signedData: Data { JWSParts(jwsRepresentation).signedData }
  /// When the store signed this JWS.
  public var signedDate: Date { unsafePayloadValue.signedDate }
  /// SHA-384 of the nonce and ``AppStore/deviceVerificationID``, as signed.
  public var deviceVerification: Data { unsafePayloadValue.deviceVerification }
  public var deviceVerificationNonce: UUID { unsafePayloadValue.deviceVerificationNonce }
}

extension VerificationResult where SignedType == AppTransaction {
  /// The app transaction's JWS, as the App Store signed it.
  public var jwsRepresentation: String { unsafePayloadValue.jws }
  /// The JWS header's JSON (`alg`, `x5c`).
  public var headerData: Data { JWSParts(jwsRepresentation).header }
  /// The JWS payload's JSON.
  public var payloadData: Data { JWSParts(jwsRepresentation).payload }
  /// The JWS signature's bytes (ES256: `r` then `s`, 32 bytes each).
  public var signatureData: Data { JWSParts(jwsRepresentation).signature }
  /// The signature as a value with CryptoKit's representations (see ``P256``).
  public var signature: P256.Signing.ECDSASignature { P256.Signing.ECDSASignature(jwsSignature: signatureData) }
  /// The bytes the signature covers: `header.payload`, base64url, as ASCII.
  public var signedData: Data { JWSParts(jwsRepresentation).signedData }
  /// When the store signed this JWS.
  public var signedDate: Date { unsafePayloadValue.signedDate }
  /// SHA-384 of the nonce and ``AppStore/deviceVerificationID``, as signed.
  public var deviceVerification: Data { unsafePayloadValue.deviceVerification }
  public var deviceVerificationNonce: UUID { unsafePayloadValue.deviceVerificationNonce }
}
