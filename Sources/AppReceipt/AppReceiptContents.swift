import Foundation
import StoreEngine

/// What an app receipt says: the app's fields and one ``InAppPurchaseReceipt`` per transaction the
/// App Store includes. Pure values, no OpenSSL: ``AppReceiptEncoding`` turns it into DER and back.
public struct AppReceiptContents: Sendable, Equatable {
  /// `ProductionSandbox` (a sandbox receipt) or `Production`.
  public var receiptType: String
  public var bundleID: String
  /// `CFBundleVersion`.
  public var applicationVersion: String
  /// Apple: "an opaque value used, with other data, to compute the SHA-1 hash".
  public var opaqueValue: Data
  /// SHA-1 of device identifier, opaque value and the bundle id attribute's bytes.
  public var sha1Hash: Data
  public var creationDate: Date
  /// When the app was first bought ("2013-08-01 07:00:00" in every sandbox receipt).
  public var originalPurchaseDate: Date
  /// "1.0" in the sandbox, as Apple's.
  public var originalApplicationVersion: String
  /// Storefront's account attribute (``ReceiptAttributeType/storefrontAccount``).
  public var account: String?
  public var inAppPurchases: [InAppPurchaseReceipt]

  /// Apple's fixed original purchase date of sandbox receipts.
  public static let sandboxOriginalPurchaseDate = Date(timeIntervalSince1970: 1_375_340_400)

  public init(
    receiptType: String, bundleID: String, applicationVersion: String, opaqueValue: Data = Data(), sha1Hash: Data = Data(),
    creationDate: Date, originalPurchaseDate: Date = sandboxOriginalPurchaseDate, originalApplicationVersion: String = "1.0",
    account: String?, inAppPurchases: [InAppPurchaseReceipt]
  ) {
    self.receiptType = receiptType
    self.bundleID = bundleID
    self.applicationVersion = applicationVersion
    self.opaqueValue = opaqueValue
    self.sha1Hash = sha1Hash
    self.creationDate = creationDate
    self.originalPurchaseDate = originalPurchaseDate
    self.originalApplicationVersion = originalApplicationVersion
    self.account = account
    self.inAppPurchases = inAppPurchases
  }

  /// `ProductionSandbox` for `Sandbox` (and `Xcode`), `Production` for `Production`.
  public static func receiptType(environment: String) -> String {
    environment == "Production" ? "Production" : "ProductionSandbox"
  }

  /// The environment (`Sandbox`, `Production`) of a receipt type.
  public var environment: String { receiptType == "Production" ? "Production" : "Sandbox" }

  /// The receipt's attribute set, in the order Storefront writes it (DER sorts a SET anyway).
  public var attributes: [ReceiptAttribute] {
    typealias T = ReceiptAttributeType
    var list: [ReceiptAttribute] = [
      ReceiptAttribute(T.receiptType, .utf8(receiptType)),
      ReceiptAttribute(T.bundleID, .utf8(bundleID)),
      ReceiptAttribute(T.applicationVersion, .utf8(applicationVersion)),
      ReceiptAttribute(T.opaqueValue, .bytes(opaqueValue)),
      ReceiptAttribute(T.sha1Hash, .bytes(sha1Hash)),
      ReceiptAttribute(T.creationDate, .date(creationDate)),
      ReceiptAttribute(T.originalPurchaseDate, .date(originalPurchaseDate)),
      ReceiptAttribute(T.originalApplicationVersion, .utf8(originalApplicationVersion)),
    ]
    if let account { list.append(ReceiptAttribute(T.storefrontAccount, .utf8(account))) }
    list += inAppPurchases.map { ReceiptAttribute(T.inAppPurchase, .set($0.attributes)) }
    return list
  }

  /// Reads a receipt's attribute set back; nil without a bundle id or creation date.
  public init?(attributes: [ReceiptAttribute]) {
    typealias T = ReceiptAttributeType
    guard let bundleID = attributes.value(T.bundleID)?.string, let creationDate = attributes.value(T.creationDate)?.date else {
      return nil
    }
    func bytes(_ type: Int) -> Data {
      if case .bytes(let data) = attributes.value(type) { return data }
      return Data()
    }
    var purchases: [InAppPurchaseReceipt] = []
    for attribute in attributes where attribute.type == T.inAppPurchase {
      guard case .set(let inner) = attribute.value, let purchase = InAppPurchaseReceipt(attributes: inner) else { return nil }
      purchases.append(purchase)
    }
    self.init(
      receiptType: attributes.value(T.receiptType)?.string ?? "ProductionSandbox", bundleID: bundleID,
      applicationVersion: attributes.value(T.applicationVersion)?.string ?? "", opaqueValue: bytes(T.opaqueValue),
      sha1Hash: bytes(T.sha1Hash), creationDate: creationDate,
      originalPurchaseDate: attributes.value(T.originalPurchaseDate)?.date ?? Self.sandboxOriginalPurchaseDate,
      originalApplicationVersion: attributes.value(T.originalApplicationVersion)?.string ?? "",
      account: attributes.value(T.storefrontAccount)?.string, inAppPurchases: purchases)
  }
}
