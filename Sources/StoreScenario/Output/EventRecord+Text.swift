import StoreEngine

extension EventRecord {
  /// The readable form of the line (after its `[time] `), like the `print` lines of the seeds'
  /// observer code: transaction callbacks and restores in StoreKit's words, the other events as
  /// their name and `key=value` pairs in key order.
  var text: String {
    switch self {
    case .transactionUpdated(let transaction): Self.text(transaction, label: "updatedTransactions")
    case .transactionRemoved(let transaction): Self.text(transaction, label: "removedTransactions")
    case .transactionRevoked(let transaction): Self.text(transaction, label: "revoked")
    case .transactionDeleted(let transaction): Self.text(transaction, label: "deleted")
    case .storefrontChanged(let fields): "paymentQueueDidChangeStorefront: \(fields.storefront)"
    case .restoreFinished(let fields): "paymentQueueRestoreCompletedTransactionsFinished (\(fields.restoredCount) restored)"
    case .restoreFailed(let fields): "restoreCompletedTransactionsFailedWithError: \(fields.error.name) (\(fields.error.code))"
    case .error(let fields): "error: \(fields.message)"
    case .productsResponse(let fields):
      pairs([
        ("request", "\(fields.request)"), ("products", fields.products.description),
        ("invalidProductIdentifiers", fields.invalidProductIdentifiers.description),
      ])
    case .productsRequestFailed(let fields):
      pairs([("request", "\(fields.request)"), ("error", fields.error.text)])
    case .shouldAddStorePayment(let fields): pairs([("productId", fields.productID)])
    case .sheetPresented(let fields):
      pairs([
        ("sheet", fields.sheet), ("transactionId", fields.transactionID), ("productId", fields.productID),
        ("quantity", fields.quantity.map { "\($0)" }), ("price", fields.price), ("currency", fields.currency),
        ("for", fields.purpose), ("subscriptionPeriod", fields.subscriptionPeriod), ("renewalPrice", fields.renewalPrice),
        ("offerType", fields.offerType.map { "\($0)" }), ("offerDiscountType", fields.offerDiscountType),
        ("offerPeriod", fields.offerPeriod), ("offerPeriodCount", fields.offerPeriodCount.map { "\($0)" }),
        ("offerPrice", fields.offerPrice), ("commitmentPayments", fields.commitmentPayments.map { "\($0)" }),
        ("commitmentPrice", fields.commitmentPrice),
      ])
    case .sheetDismissed: pairs([])
    // As Foundation prints NSNull, which stood for the signed-out account.
    case .accountChanged(let fields): pairs([("account", fields.account ?? "<null>")])
    case .subscriptionStatusChanged(let fields):
      pairs([
        ("productId", fields.productID), ("originalTransactionId", fields.originalTransactionID),
        ("status", fields.status), ("reason", fields.reason),
      ])
    case .historyCleared(let fields): pairs([("account", fields.account)])
    case .askToBuyAnswered(let fields):
      pairs([
        ("answer", fields.answer), ("productId", fields.productID), ("account", fields.account),
        ("transactionIds", fields.transactionIDs.joined(separator: ",")),
      ])
    case .refundRequest(let fields):
      pairs([("transactionId", fields.transactionID), ("result", fields.result), ("error", fields.error?.text)])
    case .appCrashed(let fields): "appCrashed: \(fields.message)"
    case .notificationQueued(let fields):
      pairs([
        ("notificationType", fields.notificationType), ("subtype", fields.subtype), ("transactionId", fields.transactionID),
        ("consumptionRequestReason", fields.consumptionRequestReason),
      ])
    case .retentionSheet(let fields): pairs(fields.text)
    case .appServerCall(let fields):
      pairs([
        ("url", fields.url), ("transactionId", fields.transactionID), ("productId", fields.productID),
        ("status", fields.status.map(String.init)), ("latencyMs", "\(fields.latencyMilliseconds)"), ("error", fields.error),
        ("finishes", fields.finishes ? "yes" : "no, delivered again at the next launch"),
      ])
    case .storeKit2(let record): record.text
    }
  }

  /// `name key=value …`, keys sorted, nil values left out.
  private func pairs(_ fields: [(key: String, value: String?)]) -> String {
    let present = fields.compactMap { field in field.value.map { (key: field.key, value: $0) } }
    return ([name] + present.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
  }

  private static func text(_ transaction: Transaction, label: String) -> String {
    var text = "\(label): \(transaction.productID) \(transaction.state) "
    if let id = transaction.transactionID, let original = transaction.originalTransactionID {
      text += "(id \(id), original \(original), quantity \(transaction.quantity))"
    } else {
      // No transactionIdentifier yet (B3): the queue's handle, for `finish` and friends.
      text += "(queue \(transaction.queueID), no transactionIdentifier, quantity \(transaction.quantity))"
    }
    if let error = transaction.error { text += " error \(error.name) (\(error.code))" }
    if let expires = transaction.expiresDate { text += " expires \(expires)" }
    return text
  }
}

extension EventRecord.ErrorObject {
  /// `["code": 2, "domain": "SKErrorDomain", "name": "paymentCancelled"]`: as Swift prints a
  /// dictionary, with the keys in order.
  var text: String {
    "[\"code\": \(code), \"domain\": \(domain.debugDescription), \"name\": \(name.debugDescription)]"
  }
}
