import AppReceipt
import Foundation
import StoreEngine
import StoreScenario
import StoreTUI

/// The app receipt as the TUI's reader sheet shows it: each attribute with its Apple type number.
enum ReceiptText {
  /// The TUI's way to the receipt of `store` (built from its ledger now, signed by its CA).
  static func access(store: LiveStore, bundleID: String) -> ReceiptAccess {
    ReceiptAccess(
      decoded: { account in
        let now = store.queue.now
        let builder = AppReceiptBuilder(ledger: store.ledger, authority: store.authority, bundleID: bundleID, now: { now })
        let der = try builder.receipt(account: account)
        let contents = try builder.contents(account: account)
        let count = contents.inAppPurchases.count
        return ("App Receipt of \(account) — \(count) in-app purchase\(count == 1 ? "" : "s")", lines(contents, bytes: der.count))
      },
      receipt: { account in try store.receipt(account: account, bundleID: bundleID) })
  }

  static func lines(_ contents: AppReceiptContents, bytes: Int) -> [String] {
    func date(_ value: Date) -> String { EventFormatter.timestamp(value) }
    var lines = [
      "PKCS#7 SignedData, \(bytes) bytes, signed by the sandbox CA (`storefront certificate` exports the root).",
      "C: export it (DER). `storefront receipt` prints it as base64 for verifyReceipt.",
      "",
      "  0 receipt type              \(contents.receiptType)",
      "  2 bundle id                 \(contents.bundleID)",
      "  3 application version       \(contents.applicationVersion)",
      "  4 opaque value              \(contents.opaqueValue.hex)",
      "  5 SHA-1 hash                \(contents.sha1Hash.hex)",
      " 12 creation date             \(date(contents.creationDate))",
      " 18 original purchase date    \(date(contents.originalPurchaseDate))",
      " 19 original app version      \(contents.originalApplicationVersion)",
    ]
    if contents.inAppPurchases.isEmpty { lines += ["", "No in-app purchases (finished consumables leave the receipt)."] }
    for purchase in contents.inAppPurchases {
      lines += [
        "",
        " 17 in-app purchase",
        "    1702 product id              \(purchase.productID)",
        "    1701 quantity                \(purchase.quantity)",
        "    1703 transaction id          \(purchase.transactionID)",
        "    1705 original transaction id \(purchase.originalTransactionID)",
        "    1704 purchase date           \(date(purchase.purchaseDate))",
        "    1706 original purchase date  \(date(purchase.originalPurchaseDate))",
      ]
      if let value = purchase.expiresDate { lines.append("    1708 expires date            \(date(value))") }
      if let value = purchase.webOrderLineItemID { lines.append("    1711 web order line item id  \(value)") }
      if let value = purchase.cancellationDate { lines.append("    1712 cancellation date       \(date(value))") }
      if let value = purchase.isTrialPeriod { lines.append("    1713 is trial period         \(value ? 1 : 0)") }
      if let value = purchase.isInIntroOfferPeriod { lines.append("    1719 is in intro offer       \(value ? 1 : 0)") }
      if let value = purchase.promotionalOfferID { lines.append("    1721 promotional offer id    \(value)") }
    }
    return lines
  }
}

extension Data {
  fileprivate var hex: String {
    map { byte in
      let text = String(byte, radix: 16)
      return text.count == 1 ? "0" + text : text
    }.joined()
  }
}
