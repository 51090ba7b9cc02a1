/// Attribute type numbers of Apple's app receipt ASN.1 ("Receipt Fields" of the Receipt Validation
/// Programming Guide), and the one Storefront adds.
public enum ReceiptAttributeType {
  /// Receipt type / environment (`ProductionSandbox`, `Production`), UTF8String (undocumented but
  /// written by Apple and read by receipt parsers).
  public static let receiptType = 0
  public static let bundleID = 2
  public static let applicationVersion = 3
  public static let opaqueValue = 4
  public static let sha1Hash = 5
  public static let creationDate = 12
  public static let inAppPurchase = 17
  public static let originalPurchaseDate = 18
  public static let originalApplicationVersion = 19
  public static let expirationDate = 21

  public static let quantity = 1701
  public static let productID = 1702
  public static let transactionID = 1703
  public static let purchaseDate = 1704
  public static let originalTransactionID = 1705
  public static let originalPurchaseDateInApp = 1706
  public static let expiresDate = 1708
  public static let webOrderLineItemID = 1711
  public static let cancellationDate = 1712
  public static let isTrialPeriod = 1713
  public static let isInIntroOfferPeriod = 1719
  public static let promotionalOfferID = 1721

  /// Storefront's own (not Apple's): the sandbox account the receipt belongs to, so `verifyReceipt`
  /// can answer `latest_receipt_info` for an empty receipt too. Apple's receipts carry undocumented
  /// types as well; parsers skip what they do not know.
  public static let storefrontAccount = 1_000_001

  /// Types whose OCTET STRING holds raw bytes, not a DER value.
  static let rawBytes: Set<Int> = [opaqueValue, sha1Hash]
}
