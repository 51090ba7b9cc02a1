import Foundation
import StoreEngine

/// The history a page at a time, and consumable units as one aggregate (schema v7): each page is
/// one indexed statement, so its cost depends on the page's size, not the history's.
extension SQLiteLedgerStore {
  /// At most `limit` transactions of `account` (nil: of every account) in `order`, after `cursor`.
  ///
  /// Insertion order is the table's own `seq` (the cursor is the last row's `seq`, so a row deleted
  /// meanwhile does not shift the next page); last-modified order is `(last_modified_ms, id)`. A
  /// cursor of the other order starts from the beginning, as ``LedgerStore/page(of:order:after:limit:)``
  /// does. Each page is read by one statement, so it is consistent in itself; rows committed
  /// between two pages appear where their key puts them.
  public func historyPage(
    account: String?, order: HistoryOrder, after cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage {
    let (rows, next) = try page(account: account, order: order, after: cursor, limit: limit, decode: decodeTransaction)
    return HistoryPage(rows: rows, next: next)
  }

  /// Selects by the `state`, `product_kind`, `is_finished` and `product_id` columns: the rows the
  /// filter rejects are neither inflated nor decoded, and `limit` counts the rows it keeps.
  public func historyPage(
    account: String, after cursor: HistoryCursor?, limit: Int, keeping filter: HistoryFilter
  ) throws(LedgerError) -> HistoryPage {
    let (rows, next) = try page(
      account: account, order: .insertion, after: cursor, limit: limit, filter: filter, decode: decodeTransaction)
    return HistoryPage(rows: rows, next: next)
  }

  /// The summaries of the insertion-order page: each row's JSON decoded into the ten fields of a
  /// ``TransactionSummary`` only (no JWS headers put back), about a third of a full decode.
  /// `expiringOnly` selects by the stored `has_expiry` column, so the other rows are not even inflated.
  public func historySummaryPage(
    account: String?, after cursor: HistoryCursor?, limit: Int, expiringOnly: Bool
  ) throws(LedgerError) -> HistorySummaryPage {
    let (rows, next) = try page(
      account: account, order: .insertion, after: cursor, limit: limit, expiringOnly: expiringOnly
    ) { stored -> TransactionSummary? in
      guard let json = stored.isBlob ? RowCompression.inflate(stored.data) : stored.data,
        var summary = try? coder.decode(TransactionSummary.self, from: json)
      else { return nil }
      summary.isFinished = stored.isFinished
      return summary
    }
    return HistorySummaryPage(rows: rows, next: next)
  }

  /// One page of rows, each decoded by `decode` (nil: the row is damaged, reported as `.corrupt`).
  private func page<Row>(
    account: String?, order: HistoryOrder, after cursor: HistoryCursor?, limit: Int, expiringOnly: Bool = false,
    filter: HistoryFilter? = nil, decode: (StoredTransactionRow) -> Row?
  ) throws(LedgerError) -> (rows: [Row], next: HistoryCursor?) {
    let statements = try preparedStatements()
    let limit = max(limit, 1)
    var from: (Int64, Int64)?
    switch (order, cursor) {
    case (.insertion, .insertion(let position)?): from = (Int64(clamping: position), 0)
    case (.lastModified, .lastModified(let milliseconds, let id)?): from = (milliseconds, LedgerSchema.idKey(id))
    default: from = nil
    }
    var rows: [Row] = []
    rows.reserveCapacity(min(limit, 1024))
    var next: HistoryCursor?
    var undecodable: UInt64?
    do {
      let select = try statements.historyPage(
        LedgerSchema.historyPage(
          byAccount: account != nil, order: order, after: from != nil, expiringOnly: expiringOnly, filter: filter),
        on: connection)
      var index: Int32 = 1
      if let account {
        try select.bind(account, at: index)
        index += 1
      }
      if let product = filter?.productID {
        try select.bind(product.rawValue, at: index)
        index += 1
      }
      if let from {
        try select.bind(from.0, at: index)
        index += 1
        if order == .lastModified {
          try select.bind(from.1, at: index)
          index += 1
        }
      }
      // One row more than the page: whether there is a next page, without decoding it.
      try select.bind(Int64(limit) + 1, at: index)
      var last: (seq: Int64, milliseconds: Int64, id: UInt64)?
      try select.forEachRow { row in
        guard rows.count < limit, undecodable == nil else {
          if let last {
            next = order == .insertion
              ? .insertion(UInt64(bitPattern: last.seq))
              : .lastModified(milliseconds: last.milliseconds, id: PaymentTransaction.ID(last.id))
          }
          return
        }
        let id = UInt64(bitPattern: row.int64(at: 1))
        if let decoded = decode(row.storedTransaction(at: 2)) {
          rows.append(decoded)
          last = (row.int64(at: 0), row.int64(at: 4), id)
        } else {
          undecodable = id
        }
      }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    if let undecodable { throw .corrupt(path: path, reason: "the stored transaction \(undecodable) could not be decoded") }
    return (rows, next)
  }

  /// Consumable units of `account` (purchased, not revoked), by product: one row per product of
  /// `consumable_units`, kept by triggers, whatever the history's length.
  public func consumableUnits(account: String) throws(LedgerError) -> [Product.ID: Int] {
    let statements = try preparedStatements()
    var units: [Product.ID: Int] = [:]
    do {
      let select = try statements.historyPage(LedgerSchema.selectConsumableUnits, on: connection)
      try select.bind(account, at: 1)
      try select.forEachRow { row in units[Product.ID(row.text(at: 0))] = Int(row.int64(at: 1)) }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    return units
  }

  /// Schema v7's back-fill, inside the migration's transaction: each stored row's last-modified
  /// time, id key, quantity and revocation (and its ms), read from its JSON (a batch of rows at a time).
  ///
  /// A row whose JSON does not decode keeps its purchase date as its last-modified time and the
  /// column defaults: reading it reports it as damaged later, as before; the migration does not
  /// refuse the whole ledger for it.
  func backfillHistoryColumns() throws {
    let select = try connection.prepare(
      "SELECT seq, id, purchase_date, json FROM transactions WHERE seq > ?1 ORDER BY seq LIMIT 1000")
    let update = try connection.prepare(
      "UPDATE transactions SET last_modified_ms = ?2, id_key = ?3, quantity = ?4, revoked = ?5, revoked_ms = ?6 WHERE seq = ?1")
    var after = Int64.min
    while true {
      var batch: [(seq: Int64, milliseconds: Int64, idKey: Int64, quantity: Int64, revoked: Int64, revokedMS: Int64?)] = []
      try select.bind(after, at: 1)
      try select.forEachRow { row in
        let seq = row.int64(at: 0)
        let id = PaymentTransaction.ID(UInt64(bitPattern: row.int64(at: 1)))
        let stored = row.bytes(at: 3)
        // The row as stored: its JWS headers are references, but lastModifiedMilliseconds reads
        // only the payload, which is kept as signed.
        if let json = stored.isBlob ? RowCompression.inflate(stored.data) : stored.data,
          let transaction = try? coder.decode(PaymentTransaction.self, from: json)
        {
          batch.append((
            seq, transaction.lastModifiedMilliseconds, LedgerSchema.idKey(id), Int64(transaction.quantity),
            transaction.revocationDate == nil ? 0 : 1, RevocationKey(transaction)?.milliseconds))
        } else {
          let purchased = Date(timeIntervalSince1970: row.double(at: 2))
          batch.append((seq, SignedPayloads.milliseconds(purchased), LedgerSchema.idKey(id), 1, 0, nil))
        }
      }
      guard let last = batch.last else { return }
      for row in batch {
        try update.bind(row.seq, at: 1)
        try update.bind(row.milliseconds, at: 2)
        try update.bind(row.idKey, at: 3)
        try update.bind(row.quantity, at: 4)
        try update.bind(row.revoked, at: 5)
        if let revoked = row.revokedMS { try update.bind(revoked, at: 6) } else { try update.bindNull(at: 6) }
        try update.run()
      }
      after = last.seq
    }
  }
}
