import COpenSSL
import Foundation

/// What goes into one certificate that Storefront issues: name, validity and extensions.
///
/// The extension strings use OpenSSL's config syntax (`critical,CA:TRUE`), so each certificate's
/// profile reads like the chain Apple's `SignedDataVerifier` checks (root, intermediate with Apple's marker
/// OID, leaf; SandboxSigningTests check it against Apple's library).
struct CertificateProfile: Sendable {
  /// Subject attributes in order, e.g. `[("CN", "…"), ("O", "…")]`.
  var subject: [(String, String)]
  var notBefore: Date
  var notAfter: Date
  var basicConstraints: String?
  var keyUsage: String?
  /// `serverAuth` and the like, for the TLS server certificate.
  var extendedKeyUsage: String?
  /// `DNS:…,IP:…` entries; TLS clients match the host name against these, not the CN.
  var subjectAltName: String?
  var subjectKeyIdentifier = true
  var authorityKeyIdentifier = true
  /// Apple's marker extensions (dotted OIDs), added non-critical with an ASN.1 NULL value as Apple does.
  var markerOIDs: [String] = []

  /// Apple's OID on the intermediate ("Apple Worldwide Developer Relations" CA marker).
  static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
  /// Apple's OID on the leaf that signs App Store data.
  static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

  /// Issues a certificate for `key`, signed by `issuer` (self-signed when nil), ecdsa-with-SHA256.
  func issue(for key: PrivateKey, issuer: (certificate: Certificate, key: PrivateKey)?) throws -> Certificate {
    OpenSSLError.clearQueue()
    guard let cert = X509_new() else { throw OpenSSLError.capture("creating a certificate") }
    var owned: OpaquePointer? = cert
    defer { if let owned { X509_free(owned) } }

    guard X509_set_version(cert, Int(X509_VERSION_3)) == 1,
      try Self.setRandomSerial(cert),
      X509_set_pubkey(cert, key.pointer) == 1,
      ASN1_TIME_set(X509_getm_notBefore(cert), time_t(notBefore.timeIntervalSince1970)) != nil,
      ASN1_TIME_set(X509_getm_notAfter(cert), time_t(notAfter.timeIntervalSince1970)) != nil
    else { throw OpenSSLError.capture("filling in certificate '\(commonName)'") }

    let name = try Self.makeName(subject)
    defer { X509_NAME_free(name) }
    guard X509_set_subject_name(cert, name) == 1,
      X509_set_issuer_name(cert, issuer.map { X509_get_subject_name($0.certificate.pointer) } ?? name) == 1
    else { throw OpenSSLError.capture("naming certificate '\(commonName)'") }

    var context = X509V3_CTX()
    X509V3_set_ctx(&context, issuer?.certificate.pointer ?? cert, cert, nil, nil, 0)
    // Order matters: the subject key id must exist before a self-signed authority key id refers to it.
    var extensions: [(Int32, String)] = []
    if let basicConstraints { extensions.append((NID_basic_constraints, basicConstraints)) }
    if let keyUsage { extensions.append((NID_key_usage, keyUsage)) }
    if let extendedKeyUsage { extensions.append((NID_ext_key_usage, extendedKeyUsage)) }
    if let subjectAltName { extensions.append((NID_subject_alt_name, subjectAltName)) }
    if subjectKeyIdentifier { extensions.append((NID_subject_key_identifier, "hash")) }
    if authorityKeyIdentifier { extensions.append((NID_authority_key_identifier, "keyid:always")) }
    for (nid, value) in extensions {
      guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
        throw OpenSSLError.capture("building extension '\(value)' of certificate '\(commonName)'")
      }
      defer { X509_EXTENSION_free(ext) }
      guard X509_add_ext(cert, ext, -1) == 1 else { throw OpenSSLError.capture("adding an extension") }
    }
    for oid in markerOIDs { try Self.addMarker(oid: oid, to: cert) }

    guard X509_sign(cert, (issuer?.key ?? key).pointer, EVP_sha256()) > 0 else {
      throw OpenSSLError.capture("signing certificate '\(commonName)'")
    }
    owned = nil
    return try Certificate(owning: cert)
  }

  private var commonName: String { subject.first { $0.0 == "CN" }?.1 ?? "certificate" }

  private static func makeName(_ attributes: [(String, String)]) throws -> OpaquePointer {
    guard let name = X509_NAME_new() else { throw OpenSSLError.capture("creating a name") }
    for (field, value) in attributes {
      let bytes = Array(value.utf8)
      guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0) == 1 else {
        X509_NAME_free(name)
        throw OpenSSLError.capture("adding \(field)=\(value) to a name")
      }
    }
    return name
  }

  /// A random positive 127-bit serial number (RFC 5280 allows up to 20 octets).
  private static func setRandomSerial(_ cert: OpaquePointer) throws -> Bool {
    guard let number = BN_new() else { return false }
    defer { BN_free(number) }
    guard BN_rand(number, 127, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY) == 1 else { return false }
    return BN_to_ASN1_INTEGER(number, X509_get_serialNumber(cert)) != nil
  }

  private static func addMarker(oid: String, to cert: OpaquePointer) throws {
    guard let object = OBJ_txt2obj(oid, 1) else { throw OpenSSLError.capture("parsing OID \(oid)") }
    defer { ASN1_OBJECT_free(object) }
    guard let value = ASN1_OCTET_STRING_new() else { throw OpenSSLError.capture("creating an octet string") }
    defer { ASN1_OCTET_STRING_free(value) }
    let asn1Null: [UInt8] = [0x05, 0x00]
    guard ASN1_OCTET_STRING_set(value, asn1Null, Int32(asn1Null.count)) == 1,
      let ext = X509_EXTENSION_create_by_OBJ(nil, object, 0, value)
    else { throw OpenSSLError.capture("building extension \(oid)") }
    defer { X509_EXTENSION_free(ext) }
    guard X509_add_ext(cert, ext, -1) == 1 else { throw OpenSSLError.capture("adding extension \(oid)") }
  }
}
