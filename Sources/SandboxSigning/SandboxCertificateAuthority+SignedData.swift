import COpenSSL
import Foundation

extension SandboxCertificateAuthority {
  /// Signs `content` as a CMS (PKCS#7) SignedData with the content inside, as an app receipt is:
  /// signed by the leaf with SHA-256, the leaf and intermediate included so a verifier needs only
  /// the root, and no signed attributes (Apple's receipts have none; their absence also keeps the
  /// wall clock's signing time out of the receipt).
  ///
  /// - Returns: the DER `ContentInfo` (OID 1.2.840.113549.1.7.2).
  /// - Throws: ``OpenSSLError``.
  public func signedData(content: Data) throws -> Data {
    OpenSSLError.clearQueue()
    guard let extra = sf_sk_X509_new_null() else { throw OpenSSLError.capture("creating a certificate list") }
    defer { sf_sk_X509_free(extra) }
    guard sf_sk_X509_push(extra, intermediate.pointer) > 0 else { throw OpenSSLError.capture("listing the intermediate") }
    let flags = UInt32(CMS_BINARY | CMS_NOATTR | CMS_NOSMIMECAP)
    let cms = try MemoryBIO.reading(content) { bio -> OpaquePointer in
      guard let cms = CMS_sign(leaf.pointer, leafKey.pointer, extra, bio, flags) else {
        throw OpenSSLError.capture("signing the app receipt (CMS_sign)")
      }
      return cms
    }
    defer { CMS_ContentInfo_free(cms) }
    var out: UnsafeMutablePointer<UInt8>?
    let length = i2d_CMS_ContentInfo(cms, &out)
    guard length > 0, let out else { throw OpenSSLError.capture("encoding the app receipt") }
    defer { sf_OPENSSL_free(out) }
    return Data(bytes: out, count: Int(length))
  }
}

/// Checks a CMS (PKCS#7) SignedData such as an app receipt against trusted roots and returns what
/// it signs (`CMS_verify`, chain checked at a given time).
public struct CMSSignedDataVerifier: Sendable {
  /// Why a SignedData was refused.
  public enum Failure: Error, Equatable, Sendable {
    /// Not DER of a CMS SignedData with the content inside (verifyReceipt's 21002).
    case malformed(String)
    /// The signature or its chain does not verify against the roots (21003).
    case notAuthentic(String)
  }

  private let roots: [Certificate]

  public init(trustedRoots: [Certificate]) {
    roots = trustedRoots
  }

  /// The signed content of `der`, once its signature and chain verify at `date`.
  public func content(of der: Data, at date: Date) throws(Failure) -> Data {
    OpenSSLError.clearQueue()
    let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
      var cursor: UnsafePointer<UInt8>? = base
      return d2i_CMS_ContentInfo(nil, &cursor, raw.count)
    }
    guard let cms = parsed else { throw .malformed(OpenSSLError.capture("reading a CMS ContentInfo").description) }
    defer { CMS_ContentInfo_free(cms) }
    guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed, let inner = CMS_get0_content(cms), inner.pointee != nil else {
      throw .malformed("it is not a PKCS#7 SignedData with its content inside")
    }
    guard let store = X509_STORE_new() else { throw .malformed("OpenSSL could not allocate a certificate store") }
    defer { X509_STORE_free(store) }
    for root in roots { X509_STORE_add_cert(store, root.pointer) }
    X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store), time_t(date.timeIntervalSince1970))
    let result: Data?
    do {
      result = try MemoryBIO.writing("verifying a CMS SignedData") { bio in
        CMS_verify(cms, nil, store, nil, bio, UInt32(CMS_BINARY)) == 1
      }
    } catch let error as OpenSSLError {
      throw .notAuthentic(error.description)
    } catch {
      throw .notAuthentic("\(error)")
    }
    return result ?? Data()
  }
}
