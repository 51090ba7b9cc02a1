import COpenSSL
import Foundation
import StoreEngine

/// ECDSA P-256 with SHA-256 in JOSE form: signatures are raw `r||s` (64 bytes), not DER.
enum ES256 {
  /// Signs `message` with `key`; returns raw `r||s`.
  static func sign(_ message: Data, with key: PrivateKey) throws -> Data {
    try message.withUnsafeBytes { try sign($0, with: key) }
  }

  /// Signs the bytes of `message` with `key`; returns raw `r||s`.
  static func sign(_ message: UnsafeRawBufferPointer, with key: PrivateKey) throws -> Data {
    OpenSSLError.clearQueue()
    guard let context = EVP_MD_CTX_new() else { throw OpenSSLError.capture("creating a digest context") }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else {
      throw OpenSSLError.capture("starting an ES256 signature")
    }
    let input = message.bindMemory(to: UInt8.self).baseAddress
    var length = 0
    guard EVP_DigestSign(context, nil, &length, input, message.count) == 1 else {
      throw OpenSSLError.capture("sizing an ES256 signature")
    }
    var signature = [UInt8](repeating: 0, count: length)
    guard EVP_DigestSign(context, &signature, &length, input, message.count) == 1 else {
      throw OpenSSLError.capture("making an ES256 signature")
    }
    guard let raw = rawSignature(fromDER: Data(signature.prefix(length))) else {
      throw OpenSSLError(operation: "converting a DER ECDSA signature to r||s")
    }
    return raw
  }

  /// True when `signature` (raw `r||s`) is `key`'s signature of `message`.
  static func verify(_ signature: Data, of message: Data, with key: OpaquePointer) -> Bool {
    defer { OpenSSLError.clearQueue() }
    guard let der = derSignature(fromRaw: signature), let context = EVP_MD_CTX_new() else { return false }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
    return der.withUnsafeBytes { sig in
      message.withUnsafeBytes { msg in
        EVP_DigestVerify(
          context, sig.bindMemory(to: UInt8.self).baseAddress, sig.count,
          msg.bindMemory(to: UInt8.self).baseAddress, msg.count) == 1
      }
    }
  }

  /// DER `ECDSA-Sig-Value` → 64-byte `r||s`.
  static func rawSignature(fromDER der: Data) -> Data? {
    der.withUnsafeBytes { raw -> Data? in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
      var cursor: UnsafePointer<UInt8>? = base
      guard let signature = d2i_ECDSA_SIG(nil, &cursor, raw.count) else { return nil }
      defer { ECDSA_SIG_free(signature) }
      var r: OpaquePointer?
      var s: OpaquePointer?
      ECDSA_SIG_get0(signature, &r, &s)
      guard let r, let s else { return nil }
      var out = [UInt8](repeating: 0, count: 64)
      let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
        guard let start = buffer.baseAddress else { return false }
        return BN_bn2binpad(r, start, 32) == 32 && BN_bn2binpad(s, start + 32, 32) == 32
      }
      return ok ? Data(out) : nil
    }
  }

  /// 64-byte `r||s` → DER `ECDSA-Sig-Value`; nil for any other length.
  static func derSignature(fromRaw raw: Data) -> Data? {
    guard raw.count == 64, let signature = ECDSA_SIG_new() else { return nil }
    defer { ECDSA_SIG_free(signature) }
    let bytes = [UInt8](raw)
    guard let r = BN_bin2bn(bytes, 32, nil) else { return nil }
    guard let s = BN_bin2bn(Array(bytes[32...]), 32, nil) else {
      BN_free(r)
      return nil
    }
    // On success ECDSA_SIG_set0 takes ownership of r and s.
    guard ECDSA_SIG_set0(signature, r, s) == 1 else {
      BN_free(r)
      BN_free(s)
      return nil
    }
    var out: UnsafeMutablePointer<UInt8>?
    let length = i2d_ECDSA_SIG(signature, &out)
    guard length > 0, let out else { return nil }
    defer { sf_OPENSSL_free(out) }
    return Data(bytes: out, count: Int(length))
  }

  /// The compact JWS of `payload` under `header`: base64url(header).base64url(payload).base64url(r||s).
  static func compactJWS(header: JWSHeaderFields, payload: Data, key: PrivateKey) throws -> String {
    try compactJWS(encodedHeader: encodedHeader(header), payload: payload, key: key)
  }

  /// The header as it goes into a JWS: sorted-key JSON, base64url.
  static func encodedHeader(_ header: JWSHeaderFields) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(header).base64URLEncoded
  }

  /// Written into one byte buffer: the signing input is signed where it lies and the signature
  /// appended to it (string concatenation copied each ~6 KB JWS three times).
  static func compactJWS(encodedHeader: String, payload: Data, key: PrivateKey) throws -> String {
    var jws: [UInt8] = []
    jws.reserveCapacity(encodedHeader.utf8.count + (payload.count * 4 + 2) / 3 + 2 + 86)
    jws.append(contentsOf: encodedHeader.utf8)
    jws.append(UInt8(ascii: "."))
    payload.withUnsafeBytes { Base64URL.append($0, to: &jws) }
    let signature = try jws.withUnsafeBytes { try sign($0, with: key) }
    jws.append(UInt8(ascii: "."))
    signature.withUnsafeBytes { Base64URL.append($0, to: &jws) }
    return String(decoding: jws, as: UTF8.self)
  }
}

/// The header fields Storefront writes; nil fields are left out.
struct JWSHeaderFields: Encodable {
  var alg = "ES256"
  var kid: String?
  var typ: String?
  /// Standard base64 DER, leaf first.
  var x5c: [String]
}
