import CSQLite

/// One SQLite connection: opening, one-off SQL and prepared statements.
///
/// Opened with `SQLITE_OPEN_NOMUTEX`: a connection belongs to one thread at a time, like the store
/// that owns it.
final class SQLiteConnection {
  let path: String
  private var handle: OpaquePointer?

  /// Opens `path` read-write (creating it), or read-only.
  init(path: String, readOnly: Bool = false) throws(SQLiteFailure) {
    self.path = path
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX
    var db: OpaquePointer?
    let code = sqlite3_open_v2(path, &db, flags, nil)
    guard code == SQLITE_OK, let db else {
      let message =
        db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
      let extended = db.map { sqlite3_extended_errcode($0) } ?? code
      sqlite3_close_v2(db)
      throw SQLiteFailure(code: extended, message: message)
    }
    sqlite3_extended_result_codes(db, 1)
    handle = db
  }

  deinit { close() }

  /// Closes the connection; statements still alive keep it open until they are released.
  func close() {
    sqlite3_close_v2(handle)
    handle = nil
  }

  var isOpen: Bool { handle != nil }

  /// True when SQLite could open the file only for reading.
  var isReadOnly: Bool {
    guard let handle else { return true }
    return sqlite3_db_readonly(handle, "main") == 1
  }

  /// True outside an explicit transaction.
  var isAutocommit: Bool {
    guard let handle else { return true }
    return sqlite3_get_autocommit(handle) != 0
  }

  func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }

  /// Waits, for lock retries SQLite's own busy handler does not cover.
  func sleep(milliseconds: Int32) {
    sqlite3_sleep(milliseconds)
  }

  /// Prepares `sql` once; `persistent` tells SQLite the statement will be reused many times.
  func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteFailure) -> SQLiteStatement {
    guard let handle else {
      throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed")
    }
    var statement: OpaquePointer?
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    let code = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw SQLiteFailure(
        code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }
    return SQLiteStatement(handle: statement, database: handle)
  }

  /// Runs one or more statements that return no rows.
  func execute(_ sql: String) throws(SQLiteFailure) {
    guard let handle else {
      throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed")
    }
    var error: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &error)
    guard code == SQLITE_OK else {
      let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
      sqlite3_free(error)
      throw SQLiteFailure(code: sqlite3_extended_errcode(handle), message: message)
    }
  }

  /// The text of every row's first column (pragmas such as `integrity_check`).
  func texts(_ sql: String) throws(SQLiteFailure) -> [String] {
    let statement = try prepare(sql)
    var result: [String] = []
    try statement.forEachRow { row in result.append(row.text(at: 0)) }
    return result
  }

  /// The first column of the first row as an integer (0 when there is no row).
  func integer(_ sql: String) throws(SQLiteFailure) -> Int64 {
    let statement = try prepare(sql)
    var result: Int64 = 0
    var first = true
    try statement.forEachRow { row in
      if first { result = row.int64(at: 0) }
      first = false
    }
    return result
  }

  /// The rowid of this connection's latest insert (`sqlite3_last_insert_rowid`): an upsert that
  /// updated an existing row, and a trigger's inserts once it ended, leave it as it was.
  var lastInsertRowID: Int64 {
    guard let handle else { return 0 }
    return sqlite3_last_insert_rowid(handle)
  }

  /// Rows changed by this connection since it opened (`sqlite3_total_changes64`), without a statement.
  var totalChanges: Int64 {
    guard let handle else { return 0 }
    return sqlite3_total_changes64(handle)
  }
}
