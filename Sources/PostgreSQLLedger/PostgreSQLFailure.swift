/// A failed libpq call: the server's SQLSTATE when it answered, and its message (never a password:
/// see ``PostgreSQLAddress/scrub(_:)``).
struct PostgreSQLFailure: Error, Sendable, CustomStringConvertible {
  /// The five-character SQLSTATE (`40001`, `08006`, …); nil when the failure was on the client side
  /// (no connection, a lost socket).
  var sqlState: String?
  var message: String

  var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }

  /// A serialization failure or a deadlock: the transaction can run again from the start.
  var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

  /// The connection is gone or could not be had: class 08, the server shutting down or starting
  /// (57P01–57P03), or no SQLSTATE at all (libpq lost the socket).
  var isConnectionLoss: Bool {
    guard let sqlState else { return true }
    return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
  }

  /// A failed connect that trying again will not mend: the login or the database is wrong. libpq
  /// gives a failed connect no SQLSTATE, so its message tells.
  var isPermanentConnectFailure: Bool {
    if let sqlState { return sqlState.hasPrefix("28") || sqlState == "3D000" }
    return Self.permanentPhrases.contains { message.contains($0) }
  }

  private static let permanentPhrases = [
    "password authentication failed", "no password supplied", "pg_hba.conf", "does not exist", "authentication failed",
    "invalid connection option", "invalid URI", "permission denied",
  ]
}
