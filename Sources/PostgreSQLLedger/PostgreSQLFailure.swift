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

  /// The connection is gone or could not be had (class 08, or no SQLSTATE at all).
  var isConnectionLoss: Bool { sqlState == nil || sqlState?.hasPrefix("08") == true || sqlState == "57P01" }
}
