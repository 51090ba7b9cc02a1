import StoreEngine

/// What an account's receipts need of its history, gathered a transaction at a time: the in-app
/// purchase receipts Apple lists (``ReceiptInclusion``), the few fields `latest_receipt_info`
/// adds to each, and whether the account has an auto-renewable subscription. Read from a ledger a
/// page at a time (``read(account:from:)``), it holds the receipt's entries, never the history's
/// transactions (their signed JWS are most of their size).
public struct ReceiptHistory: Sendable, Equatable {
  /// The in-app purchase receipts, in the history's order.
  public private(set) var inAppPurchases: [InAppPurchaseReceipt] = []
  /// For each of ``inAppPurchases`` (same index), what `latest_receipt_info` adds from its transaction.
  private(set) var details: [Details] = []
  /// Whether the account has an auto-renewable subscription: `verifyReceipt` then answers
  /// `latest_receipt`, `latest_receipt_info` and `pending_renewal_info`, and wants the shared secret.
  public private(set) var hasAutoRenewable = false
  private var seenNonConsumables: Set<PaymentTransaction.ID> = []

  /// Rows per page read from the ledger.
  static let pageSize = 256

  /// A transaction's fields that only `latest_receipt_info` shows.
  struct Details: Sendable, Equatable {
    var familyShared: Bool
    var subscriptionGroupID: String?
    var isUpgraded: Bool
    var appAccountToken: String?
    var revocationReason: Int?
    /// The offer code's reference name, for a transaction bought with an offer code.
    var offerCode: String?

    init(_ transaction: PaymentTransaction) {
      familyShared = transaction.familySharedBy != nil
      subscriptionGroupID = transaction.subscriptionGroupID
      isUpgraded = transaction.isUpgraded
      appAccountToken = transaction.appAccountToken
      revocationReason = transaction.revocationReason
      offerCode = transaction.offerType == .code ? transaction.offerID : nil
    }
  }

  public init() {}

  /// The receipt history of `history` (one account's transactions, oldest first).
  public init(_ history: [PaymentTransaction]) {
    for transaction in history { add(transaction) }
  }

  /// `account`'s receipt history, read from `ledger` a page at a time in insertion order.
  public static func read(account: String, from ledger: any LedgerStore) throws(LedgerError) -> ReceiptHistory {
    var history = ReceiptHistory()
    var cursor: HistoryCursor?
    repeat {
      let page = try ledger.historyPage(account: account, order: .insertion, after: cursor, limit: pageSize)
      for transaction in page.rows { history.add(transaction) }
      cursor = page.next
    } while cursor != nil
    return history
  }

  /// Adds the next transaction of the history (by ``ReceiptInclusion/inAppPurchases(of:)``'s rules).
  public mutating func add(_ transaction: PaymentTransaction) {
    guard transaction.state == .purchased else { return }
    switch transaction.productKind {
    case .consumable:
      guard !transaction.isFinished else { return }
    case .nonConsumable:
      guard seenNonConsumables.insert(transaction.originalID).inserted else { return }
    case .autoRenewableSubscription:
      hasAutoRenewable = true
    case .nonRenewingSubscription:
      break
    }
    inAppPurchases.append(InAppPurchaseReceipt(transaction))
    details.append(Details(transaction))
  }
}
