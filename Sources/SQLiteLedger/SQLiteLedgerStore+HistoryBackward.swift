import Foundation
import StoreEngine

/// Newest-first history pages, revocation pages and one account's subscription records, each one
/// indexed statement (schema v7), so their cost is the page's, not the history's.
extension SQLiteLedgerStore {
  /// At most `limit` transactions of `account` (nil: of every account) newest-first in `order`,
  /// before `cursor` (nil, or a cursor of the other order: from the newest).
  ///
  /// The cursor is the oldest row's `seq` or `(last_modified_ms, id)`, as forward pages' are.
  public func historyPage(
    account: String?, order: HistoryOrder, before cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage {
    var parameters: [SQLiteParameter] = account.map { [.text($0)] } ?? []
    var before = false
    switch (order, cursor) {
    case (.insertion, .insertion(let position)?):
      parameters.append(.int(Int64(clamping: position)))
      before = true
    case (.lastModified, .lastModified(let milliseconds, let id)?):
      parameters += [.int(milliseconds), .int(LedgerSchema.idKey(id))]
      before = true
    default: break
    }
    let read = try readPage(
      LedgerSchema.historyPage(byAccount: account != nil, order: order, before: before), parameters, limit: limit)
    guard read.more, let last = read.last else { return HistoryPage(rows: read.rows, next: nil) }
    let next: HistoryCursor =
      order == .insertion
      ? .insertion(UInt64(bitPattern: last.seq)) : .lastModified(milliseconds: last.key, id: last.id)
    return HistoryPage(rows: read.rows, next: next)
  }

  /// At most `limit` revoked transactions of `account` in revocation order, after `cursor`.
  public func revokedPage(account: String, after cursor: RevocationKey?, limit: Int) throws(LedgerError) -> RevokedPage {
    try revokedPage(account: account, descending: false, from: cursor, limit: limit)
  }

  /// At most `limit` revoked transactions of `account` newest revocation first, before `cursor`.
  public func revokedPage(account: String, before cursor: RevocationKey?, limit: Int) throws(LedgerError) -> RevokedPage {
    try revokedPage(account: account, descending: true, from: cursor, limit: limit)
  }

  /// The records of `account` with one of `statuses` (nil: all), by original id, through
  /// `subscriptions_account` (account, status, original id): the other statuses' are not decoded.
  public func subscriptions(account: String, statuses: Set<SubscriptionStatus>?) throws(LedgerError) -> [SubscriptionRecord] {
    let wanted = statuses.map { $0.map(\.rawValue).sorted() }
    if wanted?.isEmpty == true { return [] }
    let statements = try preparedStatements()
    var records: [SubscriptionRecord] = []
    var undecodable: UInt64?
    do {
      let select = try statements.historyPage(LedgerSchema.selectAccountSubscriptions(statuses: wanted?.count), on: connection)
      try select.bind(account, at: 1)
      for (offset, status) in (wanted ?? []).enumerated() { try select.bind(status, at: Int32(offset + 2)) }
      try select.forEachRow { row in
        if let record = try? recordCoder.decode(SubscriptionRecord.self, from: row.text(at: 1)) {
          records.append(record)
        } else if undecodable == nil {
          undecodable = UInt64(bitPattern: row.int64(at: 0))
        }
      }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    if let undecodable {
      throw .corrupt(path: path, reason: "the stored subscription record of transaction \(undecodable) could not be decoded")
    }
    return records
  }

  private func revokedPage(
    account: String, descending: Bool, from cursor: RevocationKey?, limit: Int
  ) throws(LedgerError) -> RevokedPage {
    var parameters: [SQLiteParameter] = [.text(account)]
    if let cursor { parameters += [.int(cursor.milliseconds), .int(LedgerSchema.idKey(cursor.id))] }
    let read = try readPage(LedgerSchema.revokedPage(descending: descending, from: cursor != nil), parameters, limit: limit)
    guard read.more, let last = read.last else { return RevokedPage(rows: read.rows, next: nil) }
    return RevokedPage(rows: read.rows, next: RevocationKey(milliseconds: last.key, id: last.id))
  }

  /// Runs `sql`, selecting `(seq, id, json, is_finished, key)` and ending in a `LIMIT` parameter, with
  /// `parameters` and `limit + 1` bound: the rows of the page (at most `limit`), the last one's
  /// position, and whether another row follows (read, not decoded).
  private func readPage(
    _ sql: String, _ parameters: [SQLiteParameter], limit: Int
  ) throws(LedgerError) -> (rows: [PaymentTransaction], last: (seq: Int64, key: Int64, id: PaymentTransaction.ID)?, more: Bool) {
    let statements = try preparedStatements()
    let limit = max(limit, 1)
    var rows: [PaymentTransaction] = []
    var last: (seq: Int64, key: Int64, id: PaymentTransaction.ID)?
    var more = false
    var undecodable: UInt64?
    do {
      let select = try statements.historyPage(sql, on: connection)
      for (offset, parameter) in parameters.enumerated() {
        switch parameter {
        case .int(let value): try select.bind(value, at: Int32(offset + 1))
        case .text(let value): try select.bind(value, at: Int32(offset + 1))
        }
      }
      try select.bind(Int64(limit) + 1, at: Int32(parameters.count + 1))
      try select.forEachRow { row in
        guard rows.count < limit, undecodable == nil else {
          more = true
          return
        }
        let id = PaymentTransaction.ID(UInt64(bitPattern: row.int64(at: 1)))
        if let transaction = decodeTransaction(row.storedTransaction(at: 2)) {
          rows.append(transaction)
          last = (row.int64(at: 0), row.int64(at: 4), id)
        } else {
          undecodable = id.rawValue
        }
      }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    if let undecodable { throw .corrupt(path: path, reason: "the stored transaction \(undecodable) could not be decoded") }
    return (rows, last, more)
  }
}

/// A value bound to a page statement's parameter.
enum SQLiteParameter {
  case int(Int64)
  case text(String)
}
