import CSQLite
import StoreEngine

extension LedgerError {
  /// What the ledger was doing when SQLite failed; decides the error for codes that can mean either.
  enum Activity {
    case opening
    case reading
    case writing
  }

  /// Translates a SQLite failure on the ledger at `path` into the error the user sees.
  init(_ failure: SQLiteFailure, path: String, while activity: Activity) {
    let reason = failure.description
    switch failure.primaryCode {
    case SQLITE_BUSY, SQLITE_LOCKED:
      self = .busy(path: path)
    case SQLITE_FULL:
      self = .writeFailed(
        path: path, reason: "the disk is full (\(reason)); free some space and try again")
    case SQLITE_IOERR:
      // Also what a full disk gives while SQLite sets up the WAL index at open.
      self = .writeFailed(
        path: path, reason: "\(reason); the disk may be full or failing: free some space and try again")
    case SQLITE_READONLY:
      self = .readOnly(path: path)
    case SQLITE_CORRUPT, SQLITE_NOTADB:
      self = .corrupt(path: path, reason: reason)
    case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
      self = .cannotOpen(path: path, reason: reason)
    default:
      switch activity {
      case .opening: self = .cannotOpen(path: path, reason: reason)
      case .reading, .writing: self = .writeFailed(path: path, reason: reason)
      }
    }
  }
}
