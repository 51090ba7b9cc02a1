import COpenSSL
import Foundation

/// An X.509 certificate held by OpenSSL.
///
/// `@unchecked Sendable`: never mutated after creation; OpenSSL's read accessors and chain
/// verification take it by `const` pointer.
public final class Certificate: @unchecked Sendable, Equatable, CustomStringConvertible {
  let pointer: OpaquePointer
  /// The DER encoding.
  public let der: Data

  init(owning pointer: OpaquePointer) throws {
    self.pointer = pointer
    var out: UnsafeMutablePointer<UInt8>?
    let length = i2d_X509(pointer, &out)
    guard length > 0, let out else {
      X509_free(pointer)
      throw OpenSSLError.capture("encoding a certificate as DER")
    }
    der = Data(bytes: out, count: Int(length))
    sf_OPENSSL_free(out)
  }

  deinit { X509_free(pointer) }

  /// Reads a DER certificate.
  public convenience init(der: Data) throws {
    OpenSSLError.clearQueue()
    let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
      var cursor: UnsafePointer<UInt8>? = base
      let cert = d2i_X509(nil, &cursor, raw.count)
      // Trailing bytes mean this was not one DER certificate.
      return cursor == base + raw.count ? cert : { X509_free(cert); return nil }()
    }
    guard let parsed else { throw OpenSSLError.capture("reading a DER certificate") }
    try self.init(owning: parsed)
  }

  /// Reads the first certificate of a PEM text.
  public convenience init(pem: Data) throws {
    OpenSSLError.clearQueue()
    let parsed = try MemoryBIO.reading(pem) { bio in PEM_read_bio_X509(bio, nil, nil, nil) }
    guard let parsed else { throw OpenSSLError.capture("reading a PEM certificate") }
    try self.init(owning: parsed)
  }

  /// Reads PEM (when the data contains `-----BEGIN`) or else DER.
  public convenience init(pemOrDER data: Data) throws {
    if data.range(of: Data("-----BEGIN".utf8)) != nil {
      try self.init(pem: data)
    } else {
      try self.init(der: data)
    }
  }

  /// The PEM encoding (`-----BEGIN CERTIFICATE-----`).
  public func pem() throws -> Data {
    try MemoryBIO.writing("writing a PEM certificate") { bio in PEM_write_bio_X509(bio, pointer) == 1 }
  }

  /// The subject in RFC 2253 form (`CN=…,O=…`).
  public var subject: String { Self.name(X509_get_subject_name(pointer)) }
  /// The issuer in RFC 2253 form.
  public var issuer: String { Self.name(X509_get_issuer_name(pointer)) }

  /// The subject's common name, or the whole subject when it has none.
  public var commonName: String {
    subject.split(separator: ",").first { $0.hasPrefix("CN=") }.map { String($0.dropFirst(3)) } ?? subject
  }

  public var notBefore: Date { Self.date(X509_get0_notBefore(pointer)) }
  public var notAfter: Date { Self.date(X509_get0_notAfter(pointer)) }

  /// Whether the certificate carries the extension `oid` (dotted form); nil when absent, else
  /// whether it is critical.
  public func extensionCriticality(oid: String) -> Bool? {
    guard let object = OBJ_txt2obj(oid, 1) else { return nil }
    defer { ASN1_OBJECT_free(object) }
    let index = X509_get_ext_by_OBJ(pointer, object, -1)
    guard index >= 0, let ext = X509_get_ext(pointer, index) else { return nil }
    return X509_EXTENSION_get_critical(ext) != 0
  }

  /// Whether the certificate carries the extension `oid` (dotted form).
  public func hasExtension(oid: String) -> Bool { extensionCriticality(oid: oid) != nil }

  /// True when the certificate's public key is EC P-256.
  public var hasP256Key: Bool {
    guard let key = X509_get0_pubkey(pointer) else { return false }
    return PublicKey.isP256(key)
  }

  /// True when `issuer`'s key made this certificate's signature.
  public func isSigned(by issuer: Certificate) -> Bool {
    guard let key = X509_get0_pubkey(issuer.pointer) else { return false }
    let ok = X509_verify(pointer, key) == 1
    OpenSSLError.clearQueue()
    return ok
  }

  /// True when `key` is the private half of this certificate's public key.
  public func matches(_ key: PrivateKey) -> Bool {
    let ok = X509_check_private_key(pointer, key.pointer) == 1
    OpenSSLError.clearQueue()
    return ok
  }

  /// True when a TLS client would accept this certificate for `hostName` (its subjectAltName DNS entries).
  public func matches(hostName: String) -> Bool {
    let ok = X509_check_host(pointer, hostName, hostName.utf8.count, 0, nil) == 1
    OpenSSLError.clearQueue()
    return ok
  }

  /// True when the certificate names the IP address `address` (`127.0.0.1`, `::1`) in its subjectAltName.
  public func matches(ipAddress address: String) -> Bool {
    let ok = X509_check_ip_asc(pointer, address, 0) == 1
    OpenSSLError.clearQueue()
    return ok
  }

  public var description: String { subject }

  public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs.der == rhs.der }

  private static func name(_ name: OpaquePointer?) -> String {
    guard let name else { return "" }
    let text = try? MemoryBIO.writing("printing a name") { bio in
      X509_NAME_print_ex(bio, name, 0, sf_XN_FLAG_RFC2253_UTF8()) >= 0
    }
    return text.map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
    var parts = tm()
    guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return .distantPast }
    return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
  }
}
