import Foundation

/// A transaction row as a select reads it: the stored JSON (deflated BLOB or TEXT) and the
/// `is_finished` column after it. The column is the truth for the flag: a finish writes it alone
/// (``StoreEngine/LedgerChange/finishTransaction(_:)``), leaving the JSON's copy as it was.
struct StoredTransactionRow {
  var data: Data
  var isBlob: Bool
  var isFinished: Bool
}

extension SQLiteStatement {
  /// The row's JSON at `column` and its `is_finished` at `column + 1`.
  func storedTransaction(at column: Int32) -> StoredTransactionRow {
    let (data, isBlob) = bytes(at: column)
    return StoredTransactionRow(data: data, isBlob: isBlob, isFinished: int64(at: column + 1) != 0)
  }
}
