/// Which rows of a history a filtered page keeps (``LedgerStore/historyPage(account:after:limit:keeping:)``),
/// by fields a ledger stores as columns, so it can skip the other rows without decoding them.
public struct HistoryFilter: Sendable, Hashable {
  /// Only purchased rows: no restored copies, failed or pending ones.
  public var purchasedOnly: Bool
  /// No finished consumables (StoreKit 2 leaves them out of `Transaction.all`).
  public var withoutFinishedConsumables: Bool
  /// Only this product's rows, when set.
  public var productID: Product.ID?

  public init(purchasedOnly: Bool = false, withoutFinishedConsumables: Bool = false, productID: Product.ID? = nil) {
    self.purchasedOnly = purchasedOnly
    self.withoutFinishedConsumables = withoutFinishedConsumables
    self.productID = productID
  }

  /// StoreKit 2's `Transaction.all` (of one product, with `productID`).
  public static func storeKitAll(productID: Product.ID? = nil) -> HistoryFilter {
    HistoryFilter(purchasedOnly: true, withoutFinishedConsumables: true, productID: productID)
  }

  public func accepts(_ transaction: PaymentTransaction) -> Bool {
    (!purchasedOnly || transaction.state == .purchased)
      && !(withoutFinishedConsumables && transaction.productKind == .consumable && transaction.isFinished)
      && (productID.map { transaction.productID == $0 } ?? true)
  }
}

extension LedgerStore {
  /// The default: the insertion-order page of `limit` rows, less those `filter` rejects (so a page
  /// may hold fewer rows, even none, and still have a next one). A ledger that stores the filter's
  /// fields as columns selects by them instead, so it neither reads nor decodes the rest.
  public func historyPage(
    account: String, after cursor: HistoryCursor?, limit: Int, keeping filter: HistoryFilter
  ) throws(LedgerError) -> HistoryPage {
    let page = try historyPage(account: account, order: .insertion, after: cursor, limit: limit)
    return HistoryPage(rows: page.rows.filter(filter.accepts), next: page.next)
  }
}
