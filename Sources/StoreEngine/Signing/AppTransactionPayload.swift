import Foundation

/// The payload of a signed app transaction (`JWSAppTransactionDecodedPayload`), with Apple's names:
/// what `AppTransaction.shared` and the App Store Server API's Get App Transaction Info both sign.
public struct AppTransactionPayload: Codable, Sendable, Equatable {
  public var receiptType: String
  public var appAppleId: Int64?
  public var bundleId: String
  public var applicationVersion: String
  public var receiptCreationDate: Int64
  public var originalPurchaseDate: Int64
  public var originalApplicationVersion: String
  public var appTransactionId: String
  public var originalPlatform: String
  public var signedDate: Int64

  /// The app transaction of `account`'s download of `bundleID`: first downloaded at `firstPurchase`
  /// (its earliest original purchase, else now), signed now. Version "1" throughout: the store has no
  /// app binary to read one from.
  public init(environment: String, appAppleID: Int64?, bundleID: String, account: String, firstPurchase: Date?, now: Date) {
    receiptType = environment
    appAppleId = appAppleID
    bundleId = bundleID
    applicationVersion = "1"
    receiptCreationDate = SignedPayloads.milliseconds(now)
    originalPurchaseDate = SignedPayloads.milliseconds(firstPurchase ?? now)
    originalApplicationVersion = "1"
    appTransactionId = SignedPayloads.appTransactionID(account: account, bundleID: bundleID)
    originalPlatform = "iOS"
    signedDate = SignedPayloads.milliseconds(now)
  }
}

extension LedgerStore {
  /// The earliest original purchase date of `account`'s history (nil: none), read a page at a time:
  /// when an app transaction says the app was first downloaded.
  public func earliestOriginalPurchase(account: String) throws(LedgerError) -> Date? {
    var earliest: Date?
    var cursor: HistoryCursor?
    repeat {
      let page = try historyPage(account: account, order: .insertion, after: cursor, limit: 500)
      for row in page.rows { earliest = min(earliest ?? row.originalPurchaseDate, row.originalPurchaseDate) }
      cursor = page.next
    } while cursor != nil
    return earliest
  }
}
