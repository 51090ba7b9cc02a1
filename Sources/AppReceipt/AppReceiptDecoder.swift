import Foundation
import SandboxSigning

/// Reads an app receipt back: checks its PKCS#7 signature against the sandbox root, then decodes
/// the receipt ASN.1 it signs. `verifyReceipt` uses it; so do the tests.
public struct AppReceiptDecoder: Sendable {
  /// Why a receipt was refused, in verifyReceipt's terms.
  public enum Failure: Error, Equatable, Sendable {
    /// Not base64, not PKCS#7 SignedData, or not receipt ASN.1 (status 21002).
    case malformed(String)
    /// The signature or its chain does not verify (status 21003).
    case notAuthentic(String)
  }

  private let verifier: CMSSignedDataVerifier

  /// A decoder that trusts `roots` (the data directory's sandbox root).
  public init(trustedRoots: [Certificate]) {
    verifier = CMSSignedDataVerifier(trustedRoots: trustedRoots)
  }

  /// Decodes base64 as `verifyReceipt` receives it; line breaks and spaces (what
  /// `base64EncodedStringWithOptions:NSDataBase64EncodingEndLineWithLineFeed` adds) are ignored.
  public func decode(base64 text: String, at date: Date) throws(Failure) -> AppReceiptContents {
    // Foundation skips the line breaks (and anything else outside the alphabet) without a copy.
    guard let der = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !der.isEmpty else {
      throw .malformed("receipt-data is not base64")
    }
    return try decode(der: der, at: date)
  }

  /// Decodes a receipt's DER, its chain checked at `date`.
  public func decode(der: Data, at date: Date) throws(Failure) -> AppReceiptContents {
    let payload: Data
    do throws(CMSSignedDataVerifier.Failure) { payload = try verifier.content(of: der, at: date) } catch {
      switch error {
      case .malformed(let detail): throw .malformed(detail)
      case .notAuthentic(let detail): throw .notAuthentic(detail)
      }
    }
    let attributes: [ReceiptAttribute]
    do throws(AppReceiptEncoding.Malformed) { attributes = try AppReceiptEncoding.attributes(payload) } catch {
      throw .malformed("the signed content is not receipt ASN.1: \(error.description)")
    }
    guard let contents = AppReceiptContents(attributes: attributes) else {
      throw .malformed("the receipt has no bundle id or creation date, or an in-app purchase without its fields")
    }
    return contents
  }
}
