import Foundation

/// Which transactions ``LedgerStore/latestTransaction(account:matching:)`` looks at: every field
/// that is set must match (nil fields match anything).
public struct TransactionMatch: Sendable, Hashable {
  public var product: Product.ID?
  /// The chain: transactions whose ``PaymentTransaction/originalID`` is this.
  public var originalID: PaymentTransaction.ID?
  public var state: TransactionState?

  public init(product: Product.ID? = nil, originalID: PaymentTransaction.ID? = nil, state: TransactionState? = nil) {
    self.product = product
    self.originalID = originalID
    self.state = state
  }

  public func accepts(_ transaction: PaymentTransaction) -> Bool {
    (product.map { $0 == transaction.productID } ?? true)
      && (originalID.map { $0 == transaction.originalID } ?? true)
      && (state.map { $0 == transaction.state } ?? true)
  }
}

extension PaymentTransaction {
  /// Whether `self` is newer than `other` in the order ``LedgerStore/latestTransaction(account:matching:)``
  /// uses: purchase date, then id.
  public func isNewer(than other: PaymentTransaction) -> Bool {
    (self.purchaseDate, self.id) > (other.purchaseDate, other.id)
  }
}

extension LedgerStore {
  /// The default reads one page at a time and counts: right, and it holds one page, but it reads
  /// the whole history. A ledger that holds long histories answers it from an index.
  public func transactionCount(account: String?) throws(LedgerError) -> Int {
    var count = 0
    try forEachPage(account: account, order: .insertion) { rows in
      count += rows.count
      return true
    }
    return count
  }

  /// The default pages up to `offset` (holding one page at a time).
  public func historyRows(account: String?, order: HistoryOrder, offset: Int, limit: Int) throws(LedgerError) -> [PaymentTransaction] {
    guard limit > 0 else { return [] }
    var skipped = 0
    var rows: [PaymentTransaction] = []
    // From the start, one page of exactly `limit` rows; further on, large pages up to `offset`.
    let pageSize = offset == 0 ? limit : Self.defaultPageSize
    try forEachPage(account: account, order: order, pageSize: pageSize) { page in
      let start = max(0, offset - skipped)
      skipped += page.count
      if start < page.count { rows += page[start..<min(page.count, start + limit - rows.count)] }
      return rows.count < limit
    }
    return rows
  }

  /// The default pages through the account's history, keeping the newest match.
  public func latestTransaction(account: String, matching match: TransactionMatch) throws(LedgerError) -> PaymentTransaction? {
    var latest: PaymentTransaction?
    try forEachPage(account: account, order: .insertion) { rows in
      for row in rows where match.accepts(row) {
        if let current = latest, !row.isNewer(than: current) { continue }
        latest = row
      }
      return true
    }
    return latest
  }

  /// Rows per page the defaults read.
  static var defaultPageSize: Int { 500 }

  /// Calls `body` with each page of the history in `order` until it returns false.
  private func forEachPage(
    account: String?, order: HistoryOrder, pageSize: Int = Self.defaultPageSize, _ body: ([PaymentTransaction]) -> Bool
  ) throws(LedgerError) {
    var cursor: HistoryCursor?
    repeat {
      let page = try historyPage(account: account, order: order, after: cursor, limit: pageSize)
      guard body(page.rows) else { return }
      cursor = page.next
    } while cursor != nil
  }
}
