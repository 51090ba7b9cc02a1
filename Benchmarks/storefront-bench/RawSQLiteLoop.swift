import CSQLite
import Foundation
import SQLiteLedger
import StoreEngine

/// The ledger's physical limit: the same rows, statements and commits as `SQLiteLedgerStore`, on
/// a connection with the same settings (WAL, `synchronous=FULL`, `foreign_keys=ON`, persistent
/// prepared statements, transient text bindings), with the JSON encoded beforehand and no engine.
final class RawSQLiteLoop {
  /// One row of `transactions` or `kv`, ready to bind.
  enum Row {
    case transaction(
      id: Int64, account: String, product: String, state: Int64, finished: Int64, original: Int64, date: Double, json: String,
      kind: String, hasExpiry: Int64)
    case value(key: String, value: String)
  }

  // Verbatim copies of LedgerSchema's statements (internal there): the v2 upsert, the change
  // counter read before and counted up after the rows, as `SQLiteLedgerStore.commit` does.
  static let upsertTransaction = """
    INSERT INTO transactions
      (id, account, product_id, state, is_finished, original_id, purchase_date, json, product_kind, has_expiry, changed)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
    ON CONFLICT (id) DO UPDATE SET
      account = excluded.account, product_id = excluded.product_id, state = excluded.state,
      is_finished = excluded.is_finished, original_id = excluded.original_id,
      purchase_date = excluded.purchase_date, json = excluded.json,
      product_kind = excluded.product_kind, has_expiry = excluded.has_expiry, changed = excluded.changed
    WHERE transactions.json IS NOT excluded.json
    """
  static let selectChangeCounter = "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM kv WHERE key = 'change-counter'), 0)"
  static let bumpChangeCounter = """
    INSERT INTO kv (key, value) VALUES ('change-counter', '1')
    ON CONFLICT (key) DO UPDATE SET value = CAST(kv.value AS INTEGER) + 1
    """
  static let upsertValue = """
    INSERT INTO kv (key, value) VALUES (?1, ?2)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE kv.value IS NOT excluded.value
    """

  private var db: OpaquePointer?
  private var statements: [OpaquePointer] = []
  private(set) var journalMode = ""

  /// Creates the ledger schema in `directory` with `SQLiteLedgerStore` itself, then reopens the
  /// file raw.
  init(directory: URL) throws {
    let store = try SQLiteLedgerStore(directory: directory)
    store.close()
    let path = directory.appendingPathComponent(SQLiteLedgerStore.fileName).path
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, db != nil else {
      throw BenchError.failed("raw SQLite could not open \(path)")
    }
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, 5000)
    try Self.check(sqlite3_exec(db, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;", nil, nil, nil), db)
    let pragma = try prepare("PRAGMA journal_mode")
    if sqlite3_step(pragma) == SQLITE_ROW, let text = sqlite3_column_text(pragma, 0) { journalMode = String(cString: text) }
    sqlite3_finalize(pragma)
    statements.removeLast()
    for sql in ["BEGIN IMMEDIATE", "COMMIT", Self.upsertTransaction, Self.upsertValue, Self.selectChangeCounter, Self.bumpChangeCounter] {
      _ = try prepare(sql, persistent: true)
    }
  }

  deinit {
    for statement in statements { sqlite3_finalize(statement) }
    sqlite3_close_v2(db)
  }

  /// Runs `commits`, each as `BEGIN IMMEDIATE; upserts; COMMIT`.
  func replay(_ commits: [[Row]]) throws {
    let (begin, commit, upsertTransaction, upsertValue) = (statements[0], statements[1], statements[2], statements[3])
    let (selectCounter, bumpCounter) = (statements[4], statements[5])
    for rows in commits {
      try step(begin)
      var counter: Int64 = 0
      if sqlite3_step(selectCounter) == SQLITE_ROW { counter = sqlite3_column_int64(selectCounter, 0) }
      sqlite3_reset(selectCounter)
      for row in rows {
        switch row {
        case .transaction(let id, let account, let product, let state, let finished, let original, let date, let json, let kind, let hasExpiry):
          sqlite3_bind_int64(upsertTransaction, 1, id)
          sqlite3_bind_text(upsertTransaction, 2, account, -1, sf_sqlite_transient())
          sqlite3_bind_text(upsertTransaction, 3, product, -1, sf_sqlite_transient())
          sqlite3_bind_int64(upsertTransaction, 4, state)
          sqlite3_bind_int64(upsertTransaction, 5, finished)
          sqlite3_bind_int64(upsertTransaction, 6, original)
          sqlite3_bind_double(upsertTransaction, 7, date)
          sqlite3_bind_text(upsertTransaction, 8, json, -1, sf_sqlite_transient())
          sqlite3_bind_text(upsertTransaction, 9, kind, -1, sf_sqlite_transient())
          sqlite3_bind_int64(upsertTransaction, 10, hasExpiry)
          sqlite3_bind_int64(upsertTransaction, 11, counter + 1)
          try step(upsertTransaction)
        case .value(let key, let value):
          sqlite3_bind_text(upsertValue, 1, key, -1, sf_sqlite_transient())
          sqlite3_bind_text(upsertValue, 2, value, -1, sf_sqlite_transient())
          try step(upsertValue)
        }
      }
      try step(bumpCounter)
      try step(commit)
    }
  }

  /// The rows `SQLiteLedgerStore` would write for `batches`, JSON encoded like its coder (sorted
  /// keys, ISO 8601 dates with milliseconds).
  static func rows(for batches: [[LedgerChange]]) throws -> [[Row]] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    nonisolated(unsafe) let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(formatter.string(from: date))
    }
    return try batches.map { batch in
      try batch.map { change -> Row in
        switch change {
        case .putTransaction(let transaction):
          let json = String(decoding: try encoder.encode(transaction), as: UTF8.self)
          return .transaction(
            id: Int64(bitPattern: transaction.id.rawValue), account: transaction.account,
            product: transaction.productID.rawValue, state: Int64(transaction.state.rawValue),
            finished: transaction.isFinished ? 1 : 0, original: Int64(bitPattern: transaction.originalID.rawValue),
            date: transaction.purchaseDate.timeIntervalSince1970, json: json,
            kind: transaction.productKind.rawValue, hasExpiry: transaction.expiresDate == nil ? 0 : 1)
        default:
          throw BenchError.failed("the cycle committed \(change), which the raw loop does not replay")
        }
      }
    }
  }

  private func prepare(_ sql: String, persistent: Bool = false) throws -> OpaquePointer {
    var statement: OpaquePointer?
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    try Self.check(sqlite3_prepare_v3(db, sql, -1, flags, &statement, nil), db)
    guard let statement else { throw BenchError.failed("raw SQLite prepared nothing for \(sql)") }
    statements.append(statement)
    return statement
  }

  private func step(_ statement: OpaquePointer) throws {
    let code = sqlite3_step(statement)
    sqlite3_reset(statement)
    try Self.check(code, db)
  }

  private static func check(_ code: Int32, _ db: OpaquePointer?) throws {
    guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
      throw BenchError.failed("raw SQLite failed (\(code)): \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "")")
    }
  }
}
