import Foundation
import StoreEngine

/// The JSON objects of a `verifyReceipt` answer: every number-like value a string except the four
/// numeric app ids, dates three ways (``ReceiptJSONDate``), as `notes/server-side-reference.md` §6.4.
enum VerifyReceiptJSON {
  /// `receipt`: what the receipt sent says, with the request's date.
  static func receipt(_ contents: AppReceiptContents, requestDate: Date) -> [String: Any] {
    var object: [String: Any] = [
      "receipt_type": contents.receiptType, "adam_id": 0, "app_item_id": 0, "bundle_id": contents.bundleID,
      "application_version": contents.applicationVersion, "download_id": 0, "version_external_identifier": 0,
      "original_application_version": contents.originalApplicationVersion,
      // A DER SET is sorted by encoding; list purchases oldest first instead, as a reader expects.
      "in_app": contents.inAppPurchases.sorted(by: chronological).map(inApp),
    ]
    ReceiptJSONDate.put(contents.creationDate, as: "receipt_creation_date", into: &object)
    ReceiptJSONDate.put(requestDate, as: "request_date", into: &object)
    ReceiptJSONDate.put(contents.originalPurchaseDate, as: "original_purchase_date", into: &object)
    return object
  }

  static func chronological(_ a: InAppPurchaseReceipt, _ b: InAppPurchaseReceipt) -> Bool {
    if a.purchaseDate != b.purchaseDate { return a.purchaseDate < b.purchaseDate }
    return (UInt64(a.transactionID) ?? 0) < (UInt64(b.transactionID) ?? 0)
  }

  /// One `in_app` entry.
  static func inApp(_ purchase: InAppPurchaseReceipt) -> [String: Any] {
    var object: [String: Any] = [
      "quantity": String(purchase.quantity), "product_id": purchase.productID, "transaction_id": purchase.transactionID,
      "original_transaction_id": purchase.originalTransactionID, "is_trial_period": String(purchase.isTrialPeriod ?? false),
      "in_app_ownership_type": "PURCHASED",
    ]
    ReceiptJSONDate.put(purchase.purchaseDate, as: "purchase_date", into: &object)
    ReceiptJSONDate.put(purchase.originalPurchaseDate, as: "original_purchase_date", into: &object)
    ReceiptJSONDate.put(purchase.expiresDate, as: "expires_date", into: &object)
    ReceiptJSONDate.put(purchase.cancellationDate, as: "cancellation_date", into: &object)
    if let line = purchase.webOrderLineItemID { object["web_order_line_item_id"] = String(line) }
    if let intro = purchase.isInIntroOfferPeriod { object["is_in_intro_offer_period"] = String(intro) }
    if let offer = purchase.promotionalOfferID { object["promotional_offer_id"] = offer }
    return object
  }

  /// `latest_receipt_info`: the account's receipt entries from the ledger now, newest first as
  /// Apple's, with the fields only the server knows; with `excludeOld`, one (the latest) per subscription.
  static func latestReceiptInfo(_ history: [PaymentTransaction], excludeOld: Bool) -> [[String: Any]] {
    let byID = Dictionary(history.map { ($0.id.description, $0) }, uniquingKeysWith: { first, _ in first })
    var entries = ReceiptInclusion.inAppPurchases(of: history)
    if excludeOld {
      var latest: [String: Int] = [:]
      for (index, entry) in entries.enumerated() where entry.webOrderLineItemID != nil {
        if let best = latest[entry.originalTransactionID], entries[best].purchaseDate > entry.purchaseDate { continue }
        latest[entry.originalTransactionID] = index
      }
      let keep = Set(latest.values)
      entries = entries.enumerated().filter { $0.element.webOrderLineItemID == nil || keep.contains($0.offset) }.map(\.element)
    }
    return entries.reversed().map { entry in
      var object = inApp(entry)
      guard let transaction = byID[entry.transactionID] else { return object }
      if transaction.familySharedBy != nil { object["in_app_ownership_type"] = "FAMILY_SHARED" }
      if let group = transaction.subscriptionGroupID { object["subscription_group_identifier"] = group }
      if transaction.isUpgraded { object["is_upgraded"] = "true" }
      if let token = transaction.appAccountToken { object["app_account_token"] = token }
      if let reason = transaction.revocationReason, entry.cancellationDate != nil { object["cancellation_reason"] = String(reason) }
      if transaction.offerType == .code, let code = transaction.offerID { object["offer_code_ref_name"] = code }
      return object
    }
  }

  /// One `pending_renewal_info` entry, from a subscription's record.
  static func pendingRenewalInfo(_ record: SubscriptionRecord) -> [String: Any] {
    var object: [String: Any] = [
      "auto_renew_product_id": record.renewalProductID.rawValue, "product_id": record.productID.rawValue,
      "original_transaction_id": record.originalID.description, "auto_renew_status": record.autoRenew ? "1" : "0",
      "is_in_billing_retry_period": record.status == .inBillingRetry ? "1" : "0",
    ]
    if let intent = record.expirationIntent { object["expiration_intent"] = String(intent.rawValue) }
    if let status = record.priceIncreaseStatus { object["price_consent_status"] = String(status.rawValue) }
    ReceiptJSONDate.put(record.gracePeriodExpiresDate, as: "grace_period_expires_date", into: &object)
    return object
  }
}
