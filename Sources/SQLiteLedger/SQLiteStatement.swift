import CSQLite
import Foundation

/// A prepared statement, prepared once and reused for every call (bindings are overwritten).
final class SQLiteStatement {
  private let handle: OpaquePointer
  private let database: OpaquePointer

  init(handle: OpaquePointer, database: OpaquePointer) {
    self.handle = handle
    self.database = database
  }

  deinit { sqlite3_finalize(handle) }

  func bind(_ value: Int64, at index: Int32) throws(SQLiteFailure) {
    try check(sqlite3_bind_int64(handle, index, value))
  }

  func bind(_ value: Double, at index: Int32) throws(SQLiteFailure) {
    try check(sqlite3_bind_double(handle, index, value))
  }

  func bind(_ value: String, at index: Int32) throws(SQLiteFailure) {
    try check(sqlite3_bind_text(handle, index, value, -1, sf_sqlite_transient()))
  }

  func bindNull(at index: Int32) throws(SQLiteFailure) {
    try check(sqlite3_bind_null(handle, index))
  }

  func bind(_ value: Data, at index: Int32) throws(SQLiteFailure) {
    let code = value.withUnsafeBytes { bytes in
      sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), sf_sqlite_transient())
    }
    try check(code)
  }

  /// Runs a statement that returns no rows, then resets it so it holds no lock.
  func run() throws(SQLiteFailure) {
    defer { sqlite3_reset(handle) }
    let code = sqlite3_step(handle)
    guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(code) }
  }

  /// Steps through every row, handing the statement to `row` for reading columns, then resets it.
  func forEachRow(_ row: (SQLiteStatement) throws(SQLiteFailure) -> Void) throws(SQLiteFailure) {
    defer { sqlite3_reset(handle) }
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw failure(code) }
      try row(self)
    }
  }

  func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

  func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  func text(at column: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// A column that may hold a BLOB or TEXT: its bytes, and whether it was a BLOB.
  func bytes(at column: Int32) -> (data: Data, isBlob: Bool) {
    let isBlob = sqlite3_column_type(handle, column) == SQLITE_BLOB
    let count = Int(sqlite3_column_bytes(handle, column))
    guard let pointer = isBlob ? sqlite3_column_blob(handle, column) : UnsafeRawPointer(sqlite3_column_text(handle, column))
    else { return (Data(), isBlob) }
    return (Data(bytes: pointer, count: count), isBlob)
  }

  private func check(_ code: Int32) throws(SQLiteFailure) {
    guard code == SQLITE_OK else { throw failure(code) }
  }

  private func failure(_ code: Int32) -> SQLiteFailure {
    // After a failed step the connection's extended code is more precise than the step's result.
    let extended = sqlite3_extended_errcode(database)
    return SQLiteFailure(
      code: extended & 0xFF == code & 0xFF ? extended : code,
      message: String(cString: sqlite3_errmsg(database)))
  }
}
