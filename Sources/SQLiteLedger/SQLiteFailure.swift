import CSQLite

/// A failed SQLite call: the extended result code and SQLite's message.
struct SQLiteFailure: Error, Sendable, CustomStringConvertible {
  /// The extended result code (`SQLITE_FULL`, `SQLITE_BUSY_SNAPSHOT`, …).
  var code: Int32
  var message: String

  /// The primary result code (the low byte of the extended one).
  var primaryCode: Int32 { code & 0xFF }

  var description: String { "\(message) (\(Self.name(of: primaryCode)))" }

  /// The C name of a primary result code, for messages a user can search for.
  static func name(of code: Int32) -> String {
    switch code {
    case SQLITE_ERROR: "SQLITE_ERROR"
    case SQLITE_PERM: "SQLITE_PERM"
    case SQLITE_ABORT: "SQLITE_ABORT"
    case SQLITE_BUSY: "SQLITE_BUSY"
    case SQLITE_LOCKED: "SQLITE_LOCKED"
    case SQLITE_NOMEM: "SQLITE_NOMEM"
    case SQLITE_READONLY: "SQLITE_READONLY"
    case SQLITE_INTERRUPT: "SQLITE_INTERRUPT"
    case SQLITE_IOERR: "SQLITE_IOERR"
    case SQLITE_CORRUPT: "SQLITE_CORRUPT"
    case SQLITE_FULL: "SQLITE_FULL"
    case SQLITE_CANTOPEN: "SQLITE_CANTOPEN"
    case SQLITE_PROTOCOL: "SQLITE_PROTOCOL"
    case SQLITE_SCHEMA: "SQLITE_SCHEMA"
    case SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT"
    case SQLITE_MISMATCH: "SQLITE_MISMATCH"
    case SQLITE_MISUSE: "SQLITE_MISUSE"
    case SQLITE_AUTH: "SQLITE_AUTH"
    case SQLITE_RANGE: "SQLITE_RANGE"
    case SQLITE_NOTADB: "SQLITE_NOTADB"
    default: "SQLite error \(code)"
    }
  }
}
