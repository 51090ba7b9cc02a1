import CPostgreSQL
import Foundation

/// The rows of one statement (text format), freed with the value.
final class PostgreSQLResult {
  private let handle: OpaquePointer

  init(_ handle: OpaquePointer) { self.handle = handle }

  deinit { PQclear(handle) }

  var rowCount: Int { Int(PQntuples(handle)) }

  /// The rows an `INSERT`, `UPDATE` or `DELETE` touched.
  var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

  /// True for NULL and for a cell that is not there (libpq would print a complaint for it).
  func isNull(_ row: Int, _ column: Int) -> Bool {
    guard row >= 0, row < rowCount, column >= 0, column < Int(PQnfields(handle)) else { return true }
    return PQgetisnull(handle, Int32(row), Int32(column)) == 1
  }

  /// The value's text; nil for NULL.
  func text(_ row: Int, _ column: Int) -> String? {
    guard !isNull(row, column), let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return nil }
    return String(cString: value)
  }

  func int64(_ row: Int, _ column: Int) -> Int64? { text(row, column).flatMap { Int64($0) } }

  func double(_ row: Int, _ column: Int) -> Double? { text(row, column).flatMap { Double($0) } }
}
