import Foundation

/// The fields of a stored transaction that a listing shows (`storefront transactions`), read
/// without the rest: decoding every field of a signed row (its JWS, price, offer, headers) was most
/// of a listing's time, and a listing of 100,000 rows reads them twice (widths, then rows).
///
/// Decodable from the ledger's own JSON of a ``PaymentTransaction`` (same keys, same values), so an
/// adapter can decode it straight from a stored row.
public struct TransactionSummary: Sendable, Equatable, Decodable {
  public var id: PaymentTransaction.ID
  public var originalID: PaymentTransaction.ID
  public var productID: Product.ID
  public var state: TransactionState
  public var quantity: Int
  public var purchaseDate: Date
  public var expiresDate: Date?
  public var revocationDate: Date?
  public var error: StoreKitError?
  public var isFinished: Bool

  /// The summary of `transaction`.
  public init(_ transaction: PaymentTransaction) {
    id = transaction.id
    originalID = transaction.originalID
    productID = transaction.productID
    state = transaction.state
    quantity = transaction.quantity
    purchaseDate = transaction.purchaseDate
    expiresDate = transaction.expiresDate
    revocationDate = transaction.revocationDate
    error = transaction.error
    isFinished = transaction.isFinished
  }
}

/// One page of a history's ``TransactionSummary``s in insertion order, and where the next starts
/// (nil: this was the last); the cursor is the one ``HistoryPage`` of the same rows has.
public struct HistorySummaryPage: Sendable, Equatable {
  public var rows: [TransactionSummary]
  public var next: HistoryCursor?

  public init(rows: [TransactionSummary], next: HistoryCursor?) {
    self.rows = rows
    self.next = next
  }
}

extension LedgerStore {
  /// The default summarizes ``historyPage(account:order:after:limit:)`` in insertion order: right,
  /// and as costly as the full page. A ledger that stores rows as JSON decodes only the summary.
  public func historySummaryPage(
    account: String?, after cursor: HistoryCursor?, limit: Int, expiringOnly: Bool
  ) throws(LedgerError) -> HistorySummaryPage {
    let page = try historyPage(account: account, order: .insertion, after: cursor, limit: limit)
    let rows = page.rows.lazy.filter { !expiringOnly || $0.expiresDate != nil }.map(TransactionSummary.init)
    return HistorySummaryPage(rows: Array(rows), next: page.next)
  }
}
