import StoreEngine

/// Which of an account's transactions its app receipt lists, by Apple's rules (Receipt Validation
/// Programming Guide, "In-App Purchase Receipt Fields"; Docs/Receipts.md).
public enum ReceiptInclusion {
  /// The in-app purchase receipts of `history` (one account's transactions, oldest first):
  ///
  /// - consumables only while unfinished ("removed from the receipt when you finish the transaction");
  /// - non-consumables always, once per product (a re-download is the same purchase);
  /// - auto-renewable subscriptions always, every period (purchase and each renewal);
  /// - non-renewing subscriptions always, every purchase;
  /// - only charged transactions (`purchased`): failed, deferred and pending ones never, and restores
  ///   only show the purchase they restore;
  /// - refunded ones stay, with their cancellation date.
  ///
  /// - Complexity: O(n) in the history's length.
  public static func inAppPurchases(of history: [PaymentTransaction]) -> [InAppPurchaseReceipt] {
    ReceiptHistory(history).inAppPurchases
  }

  /// Whether the account has an auto-renewable subscription: `verifyReceipt` then answers
  /// `latest_receipt`, `latest_receipt_info` and `pending_renewal_info`, and wants the shared secret.
  public static func hasAutoRenewable(_ history: [PaymentTransaction]) -> Bool {
    history.contains { $0.productKind == .autoRenewableSubscription && $0.state == .purchased }
  }
}
