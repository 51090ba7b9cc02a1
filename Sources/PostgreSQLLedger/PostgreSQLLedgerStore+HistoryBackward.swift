import Foundation
import StoreEngine

/// Newest-first history pages, revocation pages and one account's subscription records, each one
/// indexed statement (schema v3), so their cost is the page's, not the history's.
extension PostgreSQLLedgerStore {
  /// At most `limit` transactions of `account` (nil: of every account) newest-first in `order`,
  /// before `cursor` (nil, or a cursor of the other order: from the newest).
  ///
  /// The cursor is the oldest row's `seq` or `(last_modified_ms, id)`, as forward pages' are; each
  /// page is one statement, consistent in itself (a walk is not one snapshot, as forward).
  public func historyPage(
    account: String?, order: HistoryOrder, before cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage {
    var parameters: [PostgreSQLValue] = account.map { [.text($0)] } ?? []
    var before = false
    switch (order, cursor) {
    case (.insertion, .insertion(let position)?):
      parameters.append(.int(Int64(clamping: position)))
      before = true
    case (.lastModified, .lastModified(let milliseconds, let id)?):
      parameters += [.int(milliseconds), .int(PostgreSQLSchema.idKey(id.rawValue))]
      before = true
    default: break
    }
    let sql = PostgreSQLSchema.historyPage(byAccount: account != nil, lastModified: order == .lastModified, before: before)
    let read = try readPage(sql, parameters, limit: limit)
    guard read.more, let last = read.last else { return HistoryPage(rows: read.rows, next: nil) }
    let next: HistoryCursor =
      order == .insertion
      ? .insertion(UInt64(bitPattern: last.key)) : .lastModified(milliseconds: last.key, id: last.id)
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
    let result = try run { connection throws(PostgreSQLFailure) in
      try connection.execute(
        PostgreSQLSchema.selectAccountSubscriptions(statuses: wanted?.count), [.text(account)] + (wanted ?? []).map { .text($0) })
    }
    var records: [SubscriptionRecord] = []
    for row in 0..<result.rowCount {
      guard let record = try? recordCoder.decode(SubscriptionRecord.self, from: result.text(row, 1) ?? "") else {
        throw .corrupt(path: name, reason: "the stored subscription record of transaction \(Self.id(result.int64(row, 0))) could not be decoded")
      }
      records.append(record)
    }
    return records
  }

  private func revokedPage(
    account: String, descending: Bool, from cursor: RevocationKey?, limit: Int
  ) throws(LedgerError) -> RevokedPage {
    var parameters: [PostgreSQLValue] = [.text(account)]
    if let cursor { parameters += [.int(cursor.milliseconds), .int(PostgreSQLSchema.idKey(cursor.id.rawValue))] }
    let read = try readPage(PostgreSQLSchema.revokedPage(descending: descending, from: cursor != nil), parameters, limit: limit)
    guard read.more, let last = read.last else { return RevokedPage(rows: read.rows, next: nil) }
    return RevokedPage(rows: read.rows, next: RevocationKey(milliseconds: last.key, id: last.id))
  }

  /// Runs `sql` (selecting `(seq, id, json, key)`, its last parameter the row limit) with
  /// `parameters` and `limit + 1`: at most `limit` rows, the last one's key and id, and whether
  /// another row follows.
  private func readPage(
    _ sql: String, _ parameters: [PostgreSQLValue], limit: Int
  ) throws(LedgerError) -> (rows: [PaymentTransaction], last: (key: Int64, id: PaymentTransaction.ID)?, more: Bool) {
    let limit = max(limit, 1)
    let result = try run { connection throws(PostgreSQLFailure) in
      try connection.execute(sql, parameters + [.int(Int64(limit) + 1)])
    }
    var rows: [PaymentTransaction] = []
    let count = min(limit, result.rowCount)
    rows.reserveCapacity(count)
    for row in 0..<count {
      guard let transaction = decodeTransaction(result.text(row, 2)) else {
        throw .corrupt(path: name, reason: "the stored transaction \(Self.id(result.int64(row, 1))) could not be decoded")
      }
      rows.append(transaction)
    }
    guard let last = rows.last else { return (rows, nil, false) }
    return (rows, (result.int64(count - 1, 3) ?? 0, last.id), result.rowCount > limit)
  }
}
