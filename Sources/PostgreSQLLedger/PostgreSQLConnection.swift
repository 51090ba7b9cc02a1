import CPostgreSQL
import Foundation

/// One libpq connection: parameterized statements (`PQexecParams`), scripts, and the notifications
/// `LISTEN` brings.
///
/// A connection belongs to one thread at a time, like the store that owns it.
final class PostgreSQLConnection {
  let address: PostgreSQLAddress
  private(set) var handle: OpaquePointer?
  /// What ``pipeline(_:)`` has prepared on this connection.
  var prepared = PostgreSQLPreparedStatements()

  /// A notification another session sent with `NOTIFY`.
  struct Notification: Equatable {
    var channel: String
    var payload: String
    /// The sending server process, so a connection can tell its own notifications from others'.
    var senderPID: Int32
  }

  /// TCP keepalives on both ends, so a client cut off from the server (a closed laptop, a pulled
  /// cable) loses its session in bounded time: the server ends its backend, and its owner-session
  /// lock, about `idle + interval × count` seconds (or `tcp_user_timeout` with data in flight) after
  /// the link went; without them Linux keeps an idle dead connection for hours. The connection
  /// string's own values, listed after these, win.
  static let keepaliveDefaults: [(String, String)] = [
    ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "3"), ("keepalives_count", "3"),
    ("tcp_user_timeout", "20000"), ("connect_timeout", "10"),
    ("options", "-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=3 -c tcp_keepalives_count=3 -c tcp_user_timeout=20000"),
  ]

  /// Connects with `address`'s connection string; libpq adds `PG*` variables and `~/.pgpass`.
  init(_ address: PostgreSQLAddress) throws(PostgreSQLFailure) {
    self.address = address
    let pairs = Self.keepaliveDefaults + [("dbname", address.conninfo)]
    let keywords = pairs.map { strdup($0.0) }
    let values = pairs.map { strdup($0.1) }
    defer { for pointer in keywords + values { free(pointer) } }
    let opened = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordList in
      (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueList in
        PQconnectdbParams(keywordList.baseAddress, valueList.baseAddress, 1)
      }
    }
    guard let connection = opened else {
      throw PostgreSQLFailure(sqlState: nil, message: "libpq could not allocate a connection")
    }
    guard PQstatus(connection) == CONNECTION_OK else {
      let message = Self.trimmed(PQerrorMessage(connection))
      PQfinish(connection)
      throw PostgreSQLFailure(sqlState: nil, message: address.scrub(message))
    }
    handle = connection
    // Notices and warnings (`CREATE … IF NOT EXISTS`, a ROLLBACK after a failed COMMIT) are not for
    // the user; libpq would print them on standard error. Errors come back as results.
    PQsetNoticeProcessor(connection, { _, _ in }, nil)
  }

  deinit { close() }

  func close() {
    if let handle { PQfinish(handle) }
    handle = nil
    prepared.reset()
  }

  var isOpen: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

  /// The server process serving this connection (`pg_backend_pid()`).
  var backendPID: Int32 { handle.map { PQbackendPID($0) } ?? 0 }

  /// The socket to wait on for notifications; -1 when closed.
  var socket: Int32 { handle.map { PQsocket($0) } ?? -1 }

  /// Where the connection really went (after `PG*` variables and defaults): `postgresql://user@host:port/db`.
  var connectedName: String {
    guard let handle else { return address.description }
    func value(_ pointer: UnsafeMutablePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
    return "postgresql://\(value(PQuser(handle)))@\(value(PQhost(handle))):\(value(PQport(handle)))/\(value(PQdb(handle)))"
  }

  /// Runs one statement with `$1…$n` bound to `parameters`; rows come back as text.
  @discardableResult
  func execute(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(PostgreSQLFailure) -> PostgreSQLResult {
    guard let handle else { throw PostgreSQLFailure(sqlState: nil, message: "the connection was closed") }
    let result = Self.withWire(parameters) { count, values, lengths, formats in
      PQexecParams(handle, sql, count, nil, values, lengths, formats, 0)
    }
    return try check(result)
  }

  /// Runs `sql`, which may hold several statements (migrations), without parameters.
  func executeScript(_ sql: String) throws(PostgreSQLFailure) {
    guard let handle else { throw PostgreSQLFailure(sqlState: nil, message: "the connection was closed") }
    _ = try check(PQexec(handle, sql))
  }

  /// Reads what arrived on the socket without waiting and returns the notifications among it.
  func notifications() throws(PostgreSQLFailure) -> [Notification] {
    guard let handle else { throw PostgreSQLFailure(sqlState: nil, message: "the connection was closed") }
    guard PQconsumeInput(handle) == 1 else {
      throw PostgreSQLFailure(sqlState: nil, message: address.scrub(Self.trimmed(PQerrorMessage(handle))))
    }
    var found: [Notification] = []
    while let notify = PQnotifies(handle) {
      found.append(
        Notification(
          channel: String(cString: notify.pointee.relname), payload: String(cString: notify.pointee.extra),
          senderPID: notify.pointee.be_pid))
      PQfreemem(notify)
    }
    return found
  }

  private func check(_ result: OpaquePointer?) throws(PostgreSQLFailure) -> PostgreSQLResult {
    guard let result else {
      throw PostgreSQLFailure(sqlState: nil, message: address.scrub(Self.trimmed(handle.flatMap { PQerrorMessage($0) })))
    }
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      let message = Self.trimmed(PQresultErrorMessage(result))
      PQclear(result)
      throw PostgreSQLFailure(sqlState: state, message: address.scrub(message))
    }
    return PostgreSQLResult(result)
  }

  static func trimmed(_ message: UnsafeMutablePointer<CChar>?) -> String {
    guard let message else { return "unknown error" }
    let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    // libpq indents a hint on a line of its own ("\n\tIs the server running…?").
    return text.replacingOccurrences(of: "\n\t", with: " ").replacingOccurrences(of: "\n", with: "; ")
  }
}
