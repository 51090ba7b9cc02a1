import StoreEngine

extension AppStoreServerAPI {
  /// `build`'s answer over `account`'s served history in last-modified order (kept between requests
  /// when the ledger has a change feed, else read now), given with the rows it shows. When a shown row
  /// is no longer as stored (a deletion, which the feed does not report) the history is read afresh and
  /// `build` runs again.
  func overHistory<Answer>(
    of account: String, _ build: ([SignedTransaction]) throws(APIError) -> (Answer, shown: [SignedTransaction])
  ) throws(APIError) -> Answer {
    guard let historyCache else { return try build(HistoryCache.byLastModified(try reader.history(of: account))).0 }
    let (answer, shown) = try build(try historyCache.sortedHistory(of: account, reader: reader))
    if try isCurrent(shown) { return answer }
    historyCache.forget(account)
    return try build(try historyCache.sortedHistory(of: account, reader: reader)).0
  }

  /// Whether `rows` are the ledger's as stored now (each still there, with the same JWS).
  private func isCurrent(_ rows: [SignedTransaction]) throws(APIError) -> Bool {
    guard !rows.isEmpty else { return true }
    let stored = Dictionary(
      try reader.rows(rows.map(\.row.id)).map { ($0.id, $0.signedTransaction) }, uniquingKeysWith: { _, last in last })
    return rows.allSatisfy { stored[$0.row.id] == .some($0.jws) }
  }
}
