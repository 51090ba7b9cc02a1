import Foundation
import StoreEngine

/// The present's reads, each one indexed statement (schema v7, ``LedgerSchema/presentTables``):
/// the Transactions pane's count and window, and the newest row of a product or a chain, at the
/// same cost on a history of a hundred transactions and of a hundred thousand.
extension SQLiteLedgerStore {
  /// How many transactions `account` (nil: every account) has: one row of `history_counts`
  /// (nil: one per account), which triggers keep on every insert and delete.
  public func transactionCount(account: String?) throws(LedgerError) -> Int {
    let statements = try preparedStatements()
    var count: Int64 = 0
    do {
      let select = try statements.historyPage(
        account == nil ? LedgerSchema.selectTotalCount : LedgerSchema.selectHistoryCount, on: connection)
      if let account { try select.bind(account, at: 1) }
      try select.forEachRow { row in count = row.int64(at: 0) }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    return Int(count)
  }

  /// Rows `offset..<offset + limit` of the history of `account` (nil: every account) in `order`:
  /// `LIMIT`/`OFFSET` on the order's index, so the rows skipped are index entries, never decoded.
  public func historyRows(account: String?, order: HistoryOrder, offset: Int, limit: Int) throws(LedgerError) -> [PaymentTransaction] {
    guard limit > 0 else { return [] }
    let statements = try preparedStatements()
    var rows: [PaymentTransaction] = []
    var undecodable: UInt64?
    do {
      let select = try statements.historyPage(LedgerSchema.historyRows(byAccount: account != nil, order: order), on: connection)
      var index: Int32 = 1
      if let account {
        try select.bind(account, at: index)
        index += 1
      }
      try select.bind(Int64(limit), at: index)
      try select.bind(Int64(max(0, offset)), at: index + 1)
      try select.forEachRow { row in
        guard undecodable == nil else { return }
        if let transaction = decodeTransaction(row.storedTransaction(at: 1)) {
          rows.append(transaction)
        } else {
          undecodable = UInt64(bitPattern: row.int64(at: 0))
        }
      }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    if let undecodable { throw .corrupt(path: path, reason: "the stored transaction \(undecodable) could not be decoded") }
    return rows
  }

  /// The newest transaction of `account` (by purchase date, then id) that `match` accepts: the
  /// rows at the newest matching purchase date, found by the index that `match`'s fields key
  /// (a chain's, a product's), of which the newest by ``PaymentTransaction/isNewer(than:)`` wins.
  public func latestTransaction(account: String, matching match: TransactionMatch) throws(LedgerError) -> PaymentTransaction? {
    let statements = try preparedStatements()
    var latest: PaymentTransaction?
    var undecodable: UInt64?
    do {
      let select = try statements.historyPage(LedgerSchema.latestTransactions(match), on: connection)
      try select.bind(account, at: 1)
      if let product = match.product { try select.bind(product.rawValue, at: 2) }
      if let original = match.originalID { try select.bind(Int64(bitPattern: original.rawValue), at: 3) }
      if let state = match.state { try select.bind(Int64(state.rawValue), at: 4) }
      try select.forEachRow { row in
        guard undecodable == nil else { return }
        guard let transaction = decodeTransaction(row.storedTransaction(at: 1)) else {
          undecodable = UInt64(bitPattern: row.int64(at: 0))
          return
        }
        if let current = latest, !transaction.isNewer(than: current) { return }
        latest = transaction
      }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    if let undecodable { throw .corrupt(path: path, reason: "the stored transaction \(undecodable) could not be decoded") }
    return latest
  }
}
