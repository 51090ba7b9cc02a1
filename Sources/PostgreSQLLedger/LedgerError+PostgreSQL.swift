import StoreEngine

extension LedgerError {
  /// Translates a PostgreSQL failure on the ledger `name` (`postgresql://user@host:port/db`) into the
  /// error the user sees.
  init(_ failure: PostgreSQLFailure, name: String) {
    let reason = failure.description
    switch failure.sqlState {
    case let state? where state.hasPrefix("08") || state == "57P01" || state == "57P03":
      self = .unreachable(server: name, reason: reason)
    case nil:
      self = .unreachable(server: name, reason: reason)
    case "40001", "40P01", "55P03":
      self = .busy(path: name)
    case "25006":
      self = .writeFailed(path: name, reason: "\(reason); the server takes no writes (a standby?), point --ledger at the primary")
    case "53100":
      self = .writeFailed(path: name, reason: "the database server's disk is full (\(reason)); free some space there and try again")
    case let state? where state.hasPrefix("28") || state == "3D000" || state == "42501":
      self = .cannotOpen(path: name, reason: "\(reason); check the user, database and privileges in the URI")
    default:
      self = .writeFailed(path: name, reason: reason)
    }
  }
}
