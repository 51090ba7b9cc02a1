import COpenSSL
import Foundation
import SandboxSigning
import StoreEngine

/// Builds an account's app receipt from the ledger as it is now: a PKCS#7 SignedData signed by the
/// data directory's sandbox CA, whose content is Apple's receipt ASN.1.
///
/// ```swift
/// let builder = AppReceiptBuilder(ledger: store.ledger, authority: store.authority, bundleID: "com.example.app", now: Date.init)
/// let receipt = try builder.receipt(account: "tester")      // DER; base64 it for verifyReceipt
/// ```
///
/// Each purchase, refund and renewal the ledger records changes the next receipt, as the real one
/// is refreshed; after `clear-history` it lists no in-app purchases.
public struct AppReceiptBuilder: @unchecked Sendable {
  // @unchecked: the ledger is a reference (`any LedgerStore`) and the clock may read it; the
  // builder only reads, on the caller's thread, as every other user of a ledger connection does.
  private let ledger: any LedgerStore
  private let authority: SandboxCertificateAuthority
  private let bundleID: String
  private let environment: String
  private let applicationVersion: String
  private let now: () -> Date

  /// - Parameters:
  ///   - environment: `Sandbox` (receipt type `ProductionSandbox`) or `Production`.
  ///   - applicationVersion: The app's `CFBundleVersion` (attribute 3).
  ///   - now: The receipt's creation date; pass the store's virtual clock.
  public init(
    ledger: any LedgerStore, authority: SandboxCertificateAuthority, bundleID: String, environment: String = "Sandbox",
    applicationVersion: String = "1", now: @escaping () -> Date
  ) {
    self.ledger = ledger
    self.authority = authority
    self.bundleID = bundleID
    self.environment = environment
    self.applicationVersion = applicationVersion
    self.now = now
  }

  /// The receipt's contents for `account`, from its ledger history now, read a page at a time
  /// (``ReceiptHistory/read(account:from:)``).
  ///
  /// - Throws: ``LedgerError`` when the ledger cannot be read.
  public func contents(account: String) throws(LedgerError) -> AppReceiptContents {
    contents(account: account, purchases: try ReceiptHistory.read(account: account, from: ledger).inAppPurchases)
  }

  /// The receipt's contents for `account` over `history` (its transactions, oldest first), created
  /// at `createdAt` (default: the builder's clock now).
  public func contents(account: String, history: [PaymentTransaction], createdAt: Date? = nil) -> AppReceiptContents {
    contents(account: account, purchases: ReceiptInclusion.inAppPurchases(of: history), createdAt: createdAt)
  }

  /// The receipt's contents for `account` listing `purchases` (``ReceiptHistory/inAppPurchases``),
  /// created at `createdAt` (default: the builder's clock now).
  public func contents(account: String, purchases: [InAppPurchaseReceipt], createdAt: Date? = nil) -> AppReceiptContents {
    let opaque = Self.digest("storefront-opaque-value:\(account)").prefix(16)
    let device = Self.digest("storefront-device-identifier:\(account)").prefix(16)
    // Apple: SHA-1 of the device identifier, the opaque value and the bundle id attribute's bytes.
    let bundleBytes = (try? AppReceiptEncoding.value(.utf8(bundleID))) ?? Data()
    return AppReceiptContents(
      receiptType: AppReceiptContents.receiptType(environment: environment), bundleID: bundleID,
      applicationVersion: applicationVersion, opaqueValue: Data(opaque), sha1Hash: Self.sha1(device + opaque + bundleBytes),
      creationDate: createdAt ?? now(), account: account, inAppPurchases: purchases)
  }

  /// The signed receipt (DER) of `account`, what `Bundle.main.appStoreReceiptURL` would hold.
  ///
  /// - Throws: ``AppReceiptError``.
  public func receipt(account: String) throws(AppReceiptError) -> Data {
    let made: AppReceiptContents
    do throws(LedgerError) { made = try contents(account: account) } catch { throw .ledger(error) }
    return try sign(made)
  }

  /// Signs `contents` with the sandbox CA.
  ///
  /// - Throws: ``AppReceiptError``.
  public func sign(_ contents: AppReceiptContents) throws(AppReceiptError) -> Data {
    let payload: Data
    do throws(AppReceiptEncoding.Malformed) { payload = try AppReceiptEncoding.der(contents.attributes) } catch {
      throw .encoding(error.description)
    }
    do { return try authority.signedData(content: payload) } catch { throw .signing("\(error)") }
  }

  static func sha1(_ data: Data) -> Data {
    var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
    data.withUnsafeBytes { raw in _ = SHA1(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &digest) }
    return Data(digest)
  }

  private static func digest(_ text: String) -> Data { sha1(Data(text.utf8)) }
}
