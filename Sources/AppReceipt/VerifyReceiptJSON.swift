import Foundation
import StoreEngine

/// The JSON objects of a `verifyReceipt` answer: every number-like value a string except the four
/// numeric app ids, dates three ways (``ReceiptJSONDate``), as Docs/Receipts.md shows.
/// One per answer, for its dates' time zone cache.
struct VerifyReceiptJSON {
  private let dates = ReceiptJSONDate()
  private static let cancellationDate = ReceiptJSONDate.Keys("cancellation_date")
  private static let expiresDate = ReceiptJSONDate.Keys("expires_date")
  private static let gracePeriodExpiresDate = ReceiptJSONDate.Keys("grace_period_expires_date")
  private static let originalPurchaseDate = ReceiptJSONDate.Keys("original_purchase_date")
  private static let purchaseDate = ReceiptJSONDate.Keys("purchase_date")
  private static let receiptCreationDate = ReceiptJSONDate.Keys("receipt_creation_date")
  private static let requestDate = ReceiptJSONDate.Keys("request_date")

  /// `receipt`: what the receipt sent says, with the request's date.
  func receipt(_ contents: AppReceiptContents, requestDate: Date) -> ReceiptJSON {
    var object: [String: ReceiptJSON] = [
      "receipt_type": .string(contents.receiptType), "adam_id": .int(0), "app_item_id": .int(0),
      "bundle_id": .string(contents.bundleID), "application_version": .string(contents.applicationVersion),
      "download_id": .int(0), "version_external_identifier": .int(0),
      "original_application_version": .string(contents.originalApplicationVersion),
      // A DER SET is sorted by encoding; list purchases oldest first instead, as a reader expects.
      "in_app": .array(Self.chronological(contents.inAppPurchases).map(inApp)),
    ]
    dates.put(contents.creationDate, as: Self.receiptCreationDate, into: &object)
    dates.put(requestDate, as: Self.requestDate, into: &object)
    dates.put(contents.originalPurchaseDate, as: Self.originalPurchaseDate, into: &object)
    return .object(object)
  }

  /// By purchase date, then numeric transaction id; each id is parsed once, not per comparison.
  static func chronological(_ purchases: [InAppPurchaseReceipt]) -> [InAppPurchaseReceipt] {
    purchases.map { (purchase: $0, id: UInt64($0.transactionID) ?? 0) }
      .sorted { a, b in
        if a.purchase.purchaseDate != b.purchase.purchaseDate { return a.purchase.purchaseDate < b.purchase.purchaseDate }
        return a.id < b.id
      }
      .map(\.purchase)
  }

  /// One `in_app` entry.
  func inApp(_ purchase: InAppPurchaseReceipt) -> ReceiptJSON { .object(inAppMembers(purchase)) }

  func inAppMembers(_ purchase: InAppPurchaseReceipt) -> [String: ReceiptJSON] {
    var object: [String: ReceiptJSON] = [
      "quantity": .string(String(purchase.quantity)), "product_id": .string(purchase.productID),
      "transaction_id": .string(purchase.transactionID), "original_transaction_id": .string(purchase.originalTransactionID),
      "is_trial_period": .string(String(purchase.isTrialPeriod ?? false)), "in_app_ownership_type": .string("PURCHASED"),
    ]
    dates.put(purchase.purchaseDate, as: Self.purchaseDate, into: &object)
    dates.put(purchase.originalPurchaseDate, as: Self.originalPurchaseDate, into: &object)
    dates.put(purchase.expiresDate, as: Self.expiresDate, into: &object)
    dates.put(purchase.cancellationDate, as: Self.cancellationDate, into: &object)
    if let line = purchase.webOrderLineItemID { object["web_order_line_item_id"] = .string(String(line)) }
    if let intro = purchase.isInIntroOfferPeriod { object["is_in_intro_offer_period"] = .string(String(intro)) }
    if let offer = purchase.promotionalOfferID { object["promotional_offer_id"] = .string(offer) }
    return object
  }

  /// `latest_receipt_info`: the account's receipt entries from the ledger now, newest first as
  /// Apple's, with the fields only the server knows; with `excludeOld`, one (the latest) per subscription.
  func latestReceiptInfo(_ history: ReceiptHistory, excludeOld: Bool) -> [ReceiptJSON] {
    var entries = Array(zip(history.inAppPurchases, history.details))
    if excludeOld {
      var latest: [String: Int] = [:]
      for (index, (entry, _)) in entries.enumerated() where entry.webOrderLineItemID != nil {
        if let best = latest[entry.originalTransactionID], entries[best].0.purchaseDate > entry.purchaseDate { continue }
        latest[entry.originalTransactionID] = index
      }
      let keep = Set(latest.values)
      entries = entries.enumerated().filter { $0.element.0.webOrderLineItemID == nil || keep.contains($0.offset) }.map(\.element)
    }
    return entries.reversed().map { entry, details in
      var object = inAppMembers(entry)
      if details.familyShared { object["in_app_ownership_type"] = .string("FAMILY_SHARED") }
      if let group = details.subscriptionGroupID { object["subscription_group_identifier"] = .string(group) }
      if details.isUpgraded { object["is_upgraded"] = .string("true") }
      if let token = details.appAccountToken { object["app_account_token"] = .string(token) }
      if let reason = details.revocationReason, entry.cancellationDate != nil {
        object["cancellation_reason"] = .string(String(reason))
      }
      if let code = details.offerCode { object["offer_code_ref_name"] = .string(code) }
      return .object(object)
    }
  }

  /// One `pending_renewal_info` entry, from a subscription's record.
  func pendingRenewalInfo(_ record: SubscriptionRecord) -> ReceiptJSON {
    var object: [String: ReceiptJSON] = [
      "auto_renew_product_id": .string(record.renewalProductID.rawValue), "product_id": .string(record.productID.rawValue),
      "original_transaction_id": .string(record.originalID.description), "auto_renew_status": .string(record.autoRenew ? "1" : "0"),
      "is_in_billing_retry_period": .string(record.status == .inBillingRetry ? "1" : "0"),
    ]
    if let intent = record.expirationIntent { object["expiration_intent"] = .string(String(intent.rawValue)) }
    if let status = record.priceIncreaseStatus { object["price_consent_status"] = .string(String(status.rawValue)) }
    dates.put(record.gracePeriodExpiresDate, as: Self.gracePeriodExpiresDate, into: &object)
    return .object(object)
  }
}
