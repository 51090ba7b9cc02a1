import AppReceipt
import Foundation

extension LiveStore {
  /// The app receipt of `account` from this store's ledger now, signed by its CA and dated by its
  /// virtual clock: what the simulated app reads from `Bundle.main.appStoreReceiptURL`.
  ///
  /// ```swift
  /// let receiptData = try store.receipt(account: account, bundleID: bundleID).base64EncodedString()
  /// ```
  ///
  /// - Throws: ``AppReceiptError``.
  func receipt(account: String, bundleID: String, environment: String = "Sandbox") throws(AppReceiptError) -> Data {
    let now = queue.now
    return try AppReceiptBuilder(
      ledger: ledger, authority: authority, bundleID: bundleID, environment: environment, now: { now }
    ).receipt(account: account)
  }
}
