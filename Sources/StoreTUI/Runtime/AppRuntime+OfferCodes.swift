import Foundation
import StoreEngine

/// The Redeem Code sheet lists the store's offer codes (B87, DECISIONS §45): read from the ledger's
/// device values when the sheet opens, redeemable ones first.
extension AppRuntime {
  /// Gives an offer-code sheet that has no list yet the store's codes.
  func readOfferCodesForSheet() {
    guard case .notificationURL(let sheet) = state.sheet, sheet.purpose.isOfferCode, sheet.codes == nil else { return }
    apply(.offerCodesRead(Self.codeLines(queue.offerCodes, now: queue.now)))
  }

  /// `GIFT  0/2 redeemed  com.example.coins  gift`, redeemable codes first.
  static func codeLines(_ codes: [OfferCode], now: Date) -> [String] {
    let ordered = codes.filter { !$0.isUsedUp && !$0.isExpired(at: now) } + codes.filter { $0.isUsedUp || $0.isExpired(at: now) }
    return ordered.map { code in
      let state = code.isExpired(at: now) ? "  expired" : code.isUsedUp ? "  used up" : ""
      return "\(code.code)  \(code.redemptions)/\(code.limit) redeemed\(state)  \(code.productID.rawValue)  \(code.offerID)"
    }
  }
}
