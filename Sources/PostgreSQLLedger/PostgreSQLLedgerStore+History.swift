import Foundation
import StoreEngine

/// The history a page at a time, and consumable units as one aggregate (schema v3): each one
/// indexed statement, so its cost depends on the page, not on the history's length.
extension PostgreSQLLedgerStore {
  /// At most `limit` transactions of `account` (nil: of every account) in `order`, after `cursor`.
  ///
  /// Insertion order is `seq` (the cursor is the last row's), last-modified order
  /// `(last_modified_ms, id)`; a cursor of the other order starts from the beginning. Each page is
  /// one statement, consistent in itself. Commits overlap on a shared ledger, so a row committed
  /// between two pages may land before the cursor (a `seq` handed out before the previous page was
  /// read): a walk lists what was committed when it began, and perhaps some of what came after.
  public func historyPage(
    account: String?, order: HistoryOrder, after cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage {
    let limit = max(limit, 1)
    var parameters: [PostgreSQLValue] = account.map { [.text($0)] } ?? []
    var after = false
    switch (order, cursor) {
    case (.insertion, .insertion(let position)?):
      parameters.append(.int(Int64(clamping: position)))
      after = true
    case (.lastModified, .lastModified(let milliseconds, let id)?):
      parameters += [.int(milliseconds), .int(PostgreSQLSchema.idKey(id.rawValue))]
      after = true
    default: break
    }
    parameters.append(.int(Int64(limit) + 1))
    let sql = PostgreSQLSchema.historyPage(byAccount: account != nil, lastModified: order == .lastModified, after: after)
    let result = try run { connection throws(PostgreSQLFailure) in try connection.execute(sql, parameters) }
    var rows: [PaymentTransaction] = []
    rows.reserveCapacity(min(limit, result.rowCount))
    for row in 0..<min(limit, result.rowCount) {
      guard let transaction = decodeTransaction(result.text(row, 2)) else {
        throw .corrupt(path: name, reason: "the stored transaction \(Self.id(result.int64(row, 1))) could not be decoded")
      }
      rows.append(transaction)
    }
    guard result.rowCount > limit, let last = rows.last else { return HistoryPage(rows: rows, next: nil) }
    let next: HistoryCursor =
      order == .insertion
      ? .insertion(UInt64(bitPattern: result.int64(limit - 1, 0) ?? 0))
      : .lastModified(milliseconds: result.int64(limit - 1, 3) ?? last.lastModifiedMilliseconds, id: last.id)
    return HistoryPage(rows: rows, next: next)
  }

  /// Consumable units of `account` (purchased, not revoked), by product: one row per product of
  /// `consumable_units`, kept by a trigger.
  public func consumableUnits(account: String) throws(LedgerError) -> [Product.ID: Int] {
    let result = try run { connection throws(PostgreSQLFailure) in
      try connection.execute(PostgreSQLSchema.selectConsumableUnits, [.text(account)])
    }
    var units: [Product.ID: Int] = [:]
    for row in 0..<result.rowCount {
      units[Product.ID(result.text(row, 0) ?? "")] = Int(result.int64(row, 1) ?? 0)
    }
    return units
  }

  /// Schema v3's back-fill, inside the migration's transaction: each row's last-modified time, id
  /// key, quantity and revocation (and its ms) from its JSON, 1,000 rows a statement. A row whose JSON does not
  /// decode keeps its purchase date and the defaults (reading it reports it as damaged, as before).
  func backfillHistoryColumns(on connection: PostgreSQLConnection) throws(PostgreSQLFailure) {
    var after = Int64.min
    while true {
      let batch = try connection.execute(PostgreSQLSchema.selectBackfillBatch, [.int(after)])
      guard batch.rowCount > 0 else { return }
      var seqs: [String] = []
      var milliseconds: [String] = []
      var keys: [String] = []
      var quantities: [String] = []
      var revoked: [String] = []
      var revokedMS: [String] = []
      for row in 0..<batch.rowCount {
        let seq = batch.int64(row, 0) ?? 0
        seqs.append(String(seq))
        keys.append(String(PostgreSQLSchema.idKey(Self.id(batch.int64(row, 1)))))
        if let transaction = decodeTransaction(batch.text(row, 3)) {
          milliseconds.append(String(transaction.lastModifiedMilliseconds))
          quantities.append(String(transaction.quantity))
          revoked.append(transaction.revocationDate == nil ? "f" : "t")
          revokedMS.append(RevocationKey(transaction).map { String($0.milliseconds) } ?? "NULL")
        } else {
          milliseconds.append(String(SignedPayloads.milliseconds(Date(timeIntervalSince1970: batch.double(row, 2) ?? 0))))
          quantities.append("1")
          revoked.append("f")
          revokedMS.append("NULL")
        }
        after = seq
      }
      func array(_ values: [String]) -> PostgreSQLValue { .text("{" + values.joined(separator: ",") + "}") }
      try connection.execute(
        PostgreSQLSchema.updateBackfillBatch,
        [array(seqs), array(milliseconds), array(keys), array(quantities), array(revoked), array(revokedMS)])
    }
  }
}
