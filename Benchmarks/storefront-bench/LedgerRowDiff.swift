import CSQLite
import Foundation

/// The rows a ledger gained or changed since an earlier copy of its file, read with raw SQLite, and
/// written again into that copy in one transaction: the advance's rows as SQLite alone stores them.
struct LedgerRowDiff {
  /// One value as SQLite stored it (TEXT and BLOB keep their storage class).
  enum Value {
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])
    case null
  }

  /// A table's written columns (generated ones left out) and its new or changed rows.
  struct Table {
    var name: String
    var columns: [String]
    var rows: [[Value]]
  }

  /// The tables the ledger's commits write themselves; others (`history_counts`, `consumable_units`,
  /// `outbox_delivery`) are kept by triggers, which the copy's inserts fire as the engine's do.
  static let writtenTables = ["jws_headers", "transactions", "chains", "subscriptions", "commit_log", "kv"]

  private(set) var tables: [Table] = []

  var rowCount: Int { tables.reduce(0) { $0 + $1.rows.count } }
  var bytes: Int {
    tables.reduce(0) { total, table in
      total + table.rows.reduce(0) { sum, row in
        sum + row.reduce(0) { size, value in
          switch value {
          case .integer, .real: size + 8
          case .text(let bytes), .blob(let bytes): size + bytes.count
          case .null: size
          }
        }
      }
    }
  }

  /// The rows of `ledger` that `earlier` (a copy of the same ledger's file from before) lacks.
  init(ledger: String, earlier: String) throws {
    let db = try RawDatabase(path: ledger)
    try db.execute("ATTACH DATABASE '\(earlier.replacingOccurrences(of: "'", with: "''"))' AS earlier")
    for name in Self.writtenTables {
      let columns = try db.writtenColumns(of: name)
      let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
      let rows = try db.rows("SELECT \(list) FROM main.\(name) EXCEPT SELECT \(list) FROM earlier.\(name)")
      if !rows.isEmpty { tables.append(Table(name: name, columns: columns, rows: rows)) }
    }
  }

  /// Writes every row into the ledger file at `path` (the earlier copy) in one `BEGIN IMMEDIATE …
  /// COMMIT`, on a connection set up as the store's (WAL, `synchronous=FULL`, `foreign_keys=ON`),
  /// one prepared `INSERT OR REPLACE` per table.
  func write(into path: String) throws {
    let db = try RawDatabase(path: path)
    try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
    try db.execute("BEGIN IMMEDIATE")
    for table in tables {
      let placeholders = (1...table.columns.count).map { "?\($0)" }.joined(separator: ", ")
      let statement = try db.prepare(
        "INSERT OR REPLACE INTO \(table.name) (\(table.columns.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(placeholders))")
      defer { sqlite3_finalize(statement) }
      for row in table.rows {
        for (index, value) in row.enumerated() { try db.bind(value, at: Int32(index + 1), in: statement) }
        try db.step(statement)
      }
    }
    try db.execute("COMMIT")
  }
}

/// A raw SQLite connection for ``LedgerRowDiff``.
private final class RawDatabase {
  private var db: OpaquePointer?

  init(path: String) throws {
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, db != nil else {
      throw BenchError.failed("raw SQLite could not open \(path)")
    }
    sqlite3_busy_timeout(db, 5000)
  }

  deinit { sqlite3_close_v2(db) }

  func execute(_ sql: String) throws {
    try check(sqlite3_exec(db, sql, nil, nil, nil))
  }

  func prepare(_ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    try check(sqlite3_prepare_v2(db, sql, -1, &statement, nil))
    guard let statement else { throw BenchError.failed("raw SQLite prepared nothing for \(sql)") }
    return statement
  }

  /// The columns an INSERT can name: `table_xinfo`'s, less generated ones (hidden 2 and 3).
  func writtenColumns(of table: String) throws -> [String] {
    let statement = try prepare("SELECT name, hidden FROM pragma_table_xinfo('\(table)')")
    defer { sqlite3_finalize(statement) }
    var columns: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      guard sqlite3_column_int(statement, 1) == 0, let name = sqlite3_column_text(statement, 0) else { continue }
      columns.append(String(cString: name))
    }
    guard !columns.isEmpty else { throw BenchError.failed("the ledger has no table \(table)") }
    return columns
  }

  func rows(_ sql: String) throws -> [[LedgerRowDiff.Value]] {
    let statement = try prepare(sql)
    defer { sqlite3_finalize(statement) }
    var rows: [[LedgerRowDiff.Value]] = []
    while true {
      let code = sqlite3_step(statement)
      if code == SQLITE_DONE { return rows }
      guard code == SQLITE_ROW else { try check(code); return rows }
      rows.append((0..<sqlite3_column_count(statement)).map { column in value(statement, column) })
    }
  }

  private func value(_ statement: OpaquePointer, _ column: Int32) -> LedgerRowDiff.Value {
    let count = Int(sqlite3_column_bytes(statement, column))
    switch sqlite3_column_type(statement, column) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
    case SQLITE_TEXT:
      guard let text = sqlite3_column_text(statement, column) else { return .text([]) }
      return .text(Array(UnsafeBufferPointer(start: text, count: count)))
    case SQLITE_BLOB:
      guard let blob = sqlite3_column_blob(statement, column) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
    default: return .null
    }
  }

  /// Binds like the store's statements: integers, doubles, and text and blobs copied by SQLite.
  func bind(_ value: LedgerRowDiff.Value, at index: Int32, in statement: OpaquePointer) throws {
    let code: Int32
    switch value {
    case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
    case .real(let number): code = sqlite3_bind_double(statement, index, number)
    case .text(let bytes) where bytes.isEmpty: code = sqlite3_bind_text(statement, index, "", 0, sf_sqlite_transient())
    case .blob(let bytes) where bytes.isEmpty: code = sqlite3_bind_zeroblob(statement, index, 0)
    case .text(let bytes):
      code = bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), sf_sqlite_transient()) }
      }
    case .blob(let bytes):
      code = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), sf_sqlite_transient()) }
    case .null: code = sqlite3_bind_null(statement, index)
    }
    try check(code)
  }

  func step(_ statement: OpaquePointer) throws {
    let code = sqlite3_step(statement)
    sqlite3_reset(statement)
    guard code == SQLITE_DONE || code == SQLITE_ROW else { try check(code); return }
  }

  private func check(_ code: Int32) throws {
    guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
      throw BenchError.failed("raw SQLite failed (\(code)): \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "")")
    }
  }
}
