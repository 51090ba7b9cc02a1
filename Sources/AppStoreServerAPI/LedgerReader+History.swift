import StoreEngine

extension LedgerReader {
  /// Rows asked of the ledger first: a response page (20) and the one that tells `hasMore`. Each
  /// further page doubles, up to ``largestLedgerPage``, for a filter that keeps few rows.
  static let firstLedgerPage = 21
  static let largestLedgerPage = 336

  /// Visits `account`'s served rows in last-modified order (`signedDate`, then id: Apple's history
  /// order) past `position`, ascending or descending as the token is, reading the ledger a page at a
  /// time, until `visit` returns false or the history ends. Each request reads afresh, so what
  /// another process committed since the last page is in the next one.
  func walkHistory(
    of account: String, from position: PageToken, _ visit: (SignedTransaction) throws(APIError) -> Bool
  ) throws(APIError) {
    var cursor = position.cursor
    var limit = Self.firstLedgerPage
    while true {
      let page = try read { () throws(LedgerError) in
        position.descending
          ? try ledger.historyPage(account: account, order: .lastModified, before: cursor, limit: limit)
          : try ledger.historyPage(account: account, order: .lastModified, after: cursor, limit: limit)
      }
      limit = min(limit * 2, Self.largestLedgerPage)
      for row in page.rows {
        guard let signed = served(row) else { continue }
        guard try visit(signed) else { return }
      }
      guard let next = page.next else { return }
      cursor = next
    }
  }

  /// Whether `account` has a row this server holds: usually the first ledger page says.
  func hasHistory(_ account: String) throws(APIError) -> Bool {
    var found = false
    try walkHistory(of: account, from: .start(.history, descending: false)) { _ in
      found = true
      return false
    }
    return found
  }
}

extension PageToken {
  /// Where the ledger's last-modified order continues (nil: from its start, or its end when
  /// descending). Ids past `Int64.max` are no transaction's: such a position is the same as one at
  /// `Int64.max`, which every ledger can store.
  var cursor: HistoryCursor? {
    guard self != .start(kind, descending: descending) else { return nil }
    return .lastModified(milliseconds: date, id: PaymentTransaction.ID(min(id, UInt64(Int64.max))))
  }
}

extension LedgerReader {
  /// Visits `account`'s served revoked rows in revocation order (revocation ms, then id) after
  /// `cursor`, or newest first before it when `descending`, reading the ledger's revocation pages
  /// (``StoreEngine/LedgerStore/revokedPage(account:after:limit:)``) until `visit` returns false.
  func walkRevocations(
    of account: String, descending: Bool, from cursor: RevocationKey?, _ visit: (SignedTransaction) throws(APIError) -> Bool
  ) throws(APIError) {
    var cursor = cursor
    var limit = Self.firstLedgerPage
    while true {
      let page = try read { () throws(LedgerError) in
        descending
          ? try ledger.revokedPage(account: account, before: cursor, limit: limit)
          : try ledger.revokedPage(account: account, after: cursor, limit: limit)
      }
      limit = min(limit * 2, Self.largestLedgerPage)
      for row in page.rows {
        guard let signed = served(row) else { continue }
        guard try visit(signed) else { return }
      }
      guard let next = page.next else { return }
      cursor = next
    }
  }
}
