extension InMemoryLedgerStore {
  /// The reference over the history it holds: the protocol's default (a bisection of forward
  /// pages) would read it whole some sixty times a page.
  public func historyPage(
    account: String?, order: HistoryOrder, before cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage {
    let all: [PaymentTransaction]
    if let account { all = try history(account: account) } else { all = try allTransactions() }
    return Self.page(of: all, order: order, before: cursor, limit: limit)
  }
}
