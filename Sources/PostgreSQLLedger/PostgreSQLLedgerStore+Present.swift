import Foundation
import StoreEngine

/// The present's reads, each one indexed statement (schema v3, ``PostgreSQLSchema/presentTables``).
extension PostgreSQLLedgerStore {
  /// How many transactions `account` (nil: every account) has: one row of `history_counts` (nil:
  /// one per account), which a trigger keeps.
  public func transactionCount(account: String?) throws(LedgerError) -> Int {
    let result = try run { connection throws(PostgreSQLFailure) in
      if let account { return try connection.execute(PostgreSQLSchema.selectHistoryCount, [.text(account)]) }
      return try connection.execute(PostgreSQLSchema.selectTotalCount)
    }
    return Int(result.int64(0, 0) ?? 0)
  }

  /// Rows `offset..<offset + limit` of the history of `account` (nil: every account) in `order`:
  /// `LIMIT`/`OFFSET` on the order's index.
  public func historyRows(account: String?, order: HistoryOrder, offset: Int, limit: Int) throws(LedgerError) -> [PaymentTransaction] {
    guard limit > 0 else { return [] }
    let parameters: [PostgreSQLValue] = (account.map { [.text($0)] } ?? []) + [.int(Int64(limit)), .int(Int64(max(0, offset)))]
    let sql = PostgreSQLSchema.historyRows(byAccount: account != nil, order: order)
    return try decodeRows(try run { connection throws(PostgreSQLFailure) in try connection.execute(sql, parameters) })
  }

  /// The newest transaction of `account` (by purchase date, then id) that `match` accepts: the
  /// rows at the newest matching purchase date, of which the newest by
  /// ``PaymentTransaction/isNewer(than:)`` wins.
  public func latestTransaction(account: String, matching match: TransactionMatch) throws(LedgerError) -> PaymentTransaction? {
    var parameters: [PostgreSQLValue] = [.text(account)]
    if let product = match.product { parameters.append(.text(product.rawValue)) }
    if let original = match.originalID { parameters.append(.int(Int64(bitPattern: original.rawValue))) }
    if let state = match.state { parameters.append(.int(Int64(state.rawValue))) }
    let sql = PostgreSQLSchema.latestTransactions(match)
    let rows = try decodeRows(try run { connection throws(PostgreSQLFailure) in try connection.execute(sql, parameters) })
    return rows.reduce(nil) { latest, row in latest.map { row.isNewer(than: $0) ? row : $0 } ?? row }
  }

  /// `(id, json)` rows decoded; a row that does not decode is reported as damaged.
  private func decodeRows(_ result: PostgreSQLResult) throws(LedgerError) -> [PaymentTransaction] {
    var rows: [PaymentTransaction] = []
    rows.reserveCapacity(result.rowCount)
    for row in 0..<result.rowCount {
      guard let transaction = decodeTransaction(result.text(row, 1)) else {
        throw .corrupt(path: name, reason: "the stored transaction \(Self.id(result.int64(row, 0))) could not be decoded")
      }
      rows.append(transaction)
    }
    return rows
  }
}
