import StoreEngine

extension StoreKit2Record {
  /// The readable form of the line (after its `[time] `): the API's name and what it gave.
  var text: String {
    switch self {
    case .purchaseResult(let fields):
      "purchase(): \(fields.productID) "
        + (fields.transaction.map { "success \($0.verification)" + Self.details($0) } ?? fields.result)
    case .purchaseError(let fields): "purchase() threw: \(fields.productID ?? "?") \(fields.error.text)"
    case .transactionUpdate(let transaction):
      "Transaction.updates: \(transaction.productID) \(transaction.verification)" + Self.details(transaction)
    case .appStoreSync(let fields): fields.error.map { "AppStore.sync() threw \($0.text)" } ?? "AppStore.sync() returned"
    case .purchaseIntent(let fields): "PurchaseIntent.intents: \(fields.productID)"
    case .subscriptionStatusUpdate(let fields):
      "Product.SubscriptionInfo.Status.updates: \(fields.productID) \(fields.status) "
        + "(original \(fields.originalTransactionID), \(fields.reason))"
    case .products(let fields):
      "Product.products(for:): \(fields.products) missing \(fields.invalidProductIdentifiers)"
    case .productsError(let fields): "Product.products(for:) threw \(fields.error.text)"
    case .currentEntitlements(let fields): "Transaction.currentEntitlements: " + Self.list(fields.transactions)
    case .unfinished(let fields): "Transaction.unfinished: " + Self.list(fields.transactions)
    case .latestTransaction(let fields):
      "Transaction.latest(for: \(fields.productID)): "
        + (fields.transaction.map { "\($0.verification)" + Self.details($0) } ?? "nil")
    case .subscriptionStatus(let fields):
      if let error = fields.error {
        "Product.SubscriptionInfo.status(\(fields.group)) threw \(error.text)"
      } else {
        "Product.SubscriptionInfo.status(\(fields.group)): "
          + Self.joined((fields.statuses ?? []).map { "\($0.productID) \($0.state) (original \($0.originalTransactionID))" })
      }
    case .appTransaction(let fields):
      if let error = fields.error {
        "AppTransaction.shared threw \(error.text)"
      } else {
        "AppTransaction.shared: bundleId \(fields.bundleID ?? "?") environment \(fields.environment ?? "?")"
      }
    case .manageSubscriptions(let fields):
      fields.error.map { "showManageSubscriptions threw \($0.text)" } ?? "showManageSubscriptions: closed"
    case .storefrontUpdate(let fields): "Storefront.updates: \(fields.storefront)"
    }
  }

  private static func details(_ transaction: Transaction) -> String {
    var text = " (id \(transaction.transactionID), original \(transaction.originalTransactionID), "
      + "quantity \(transaction.quantity))"
    if let expires = transaction.expiresDate { text += " expires \(expires)" }
    if let revoked = transaction.revocationDate { text += " revoked \(revoked)" }
    if transaction.isUpgraded == true { text += " upgraded" }
    return text
  }

  private static func list(_ transactions: [Transaction]) -> String {
    joined(transactions.map { "\($0.productID) (id \($0.transactionID))" })
  }

  private static func joined(_ items: [String]) -> String {
    items.isEmpty ? "none" : items.joined(separator: ", ")
  }
}
