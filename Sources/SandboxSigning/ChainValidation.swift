import COpenSSL
import Foundation

/// OpenSSL chain validation with the settings of Apple's verifier: `X509_STRICT`, no partial chains,
/// the given time, only the given roots trusted.
enum ChainValidation {
  static func validate(
    leaf: Certificate, intermediate: Certificate, roots: [Certificate], at date: Date
  ) throws(JWSVerificationFailure) {
    defer { OpenSSLError.clearQueue() }
    guard !roots.isEmpty else { throw .unknownRoot }
    guard let store = X509_STORE_new() else { throw .invalidChain("OpenSSL could not create a store") }
    defer { X509_STORE_free(store) }
    for root in roots where X509_STORE_add_cert(store, root.pointer) != 1 {
      throw .invalidChain("OpenSSL refused the trusted root '\(root.commonName)'")
    }
    guard X509_STORE_set_flags(store, UInt(X509_V_FLAG_X509_STRICT)) == 1,
      let untrusted = sf_sk_X509_new_null()
    else { throw .invalidChain("OpenSSL could not set up verification") }
    defer { sf_sk_X509_free(untrusted) }
    guard sf_sk_X509_push(untrusted, intermediate.pointer) > 0, let context = X509_STORE_CTX_new() else {
      throw .invalidChain("OpenSSL could not set up verification")
    }
    defer { X509_STORE_CTX_free(context) }
    guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
      throw .invalidChain("OpenSSL could not set up verification")
    }
    X509_STORE_CTX_set_time(context, 0, time_t(date.timeIntervalSince1970))
    if X509_verify_cert(context) == 1 { return }

    let code = X509_STORE_CTX_get_error(context)
    let depth = Int(X509_STORE_CTX_get_error_depth(context))
    let subject = [leaf, intermediate].indices.contains(depth) ? [leaf, intermediate][depth].commonName
      : (X509_STORE_CTX_get_current_cert(context).flatMap { try? Certificate(der: derOf($0)) }?.commonName
        ?? "root")
    switch code {
    case X509_V_ERR_CERT_HAS_EXPIRED:
      throw .expired(certificate: subject, at: date)
    case X509_V_ERR_CERT_NOT_YET_VALID:
      throw .notYetValid(certificate: subject, at: date)
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
      X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
      throw .unknownRoot
    default:
      let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
      throw .invalidChain("\(reason) (certificate '\(subject)')")
    }
  }

  private static func derOf(_ cert: OpaquePointer) -> Data {
    var out: UnsafeMutablePointer<UInt8>?
    let length = i2d_X509(cert, &out)
    guard length > 0, let out else { return Data() }
    defer { sf_OPENSSL_free(out) }
    return Data(bytes: out, count: Int(length))
  }
}
