import CPostgreSQL
import Foundation

/// Where a PostgreSQL ledger lives, as a user may be shown it: `postgresql://user@host:port/db`
/// without the password, whatever form the connection string had (a URI or `key=value` pairs).
public struct PostgreSQLAddress: Sendable, Equatable, CustomStringConvertible {
  /// The connection string as given, passed to libpq unchanged (it may hold a password).
  let conninfo: String
  /// The password in it, if any, so that a message echoing it can be scrubbed.
  private let password: String?
  /// The user, host, port and database named in it (libpq fills the rest from `PG*` variables).
  public let user: String?
  public let host: String?
  public let port: String?
  public let database: String?

  /// Whether `text` selects a PostgreSQL ledger (`postgresql://` or `postgres://`).
  public static func isPostgreSQL(_ text: String) -> Bool {
    text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
  }

  /// Parses `conninfo` with libpq; a string libpq rejects keeps only what is safe to show.
  public init(_ conninfo: String) {
    self.conninfo = conninfo
    var options: [String: String] = [:]
    var error: UnsafeMutablePointer<CChar>?
    if let parsed = PQconninfoParse(conninfo, &error) {
      var option = parsed
      while let keyword = option.pointee.keyword {
        if let value = option.pointee.val { options[String(cString: keyword)] = String(cString: value) }
        option += 1
      }
      PQconninfoFree(parsed)
    }
    if let error { PQfreemem(error) }
    password = options["password"].flatMap { $0.isEmpty ? nil : $0 }
    user = options["user"]
    host = options["host"] ?? options["hostaddr"]
    port = options["port"]
    database = options["dbname"]
  }

  /// `postgresql://user@host:port/database`, each part present only when the string named it.
  public var description: String {
    var text = "postgresql://"
    if let user { text += user + "@" }
    text += host ?? ""
    if let port { text += ":" + port }
    if let database { text += "/" + database }
    return text
  }

  /// `message` with the password, if it appears, replaced by `***`.
  func scrub(_ message: String) -> String {
    guard let password else { return message }
    return message.replacingOccurrences(of: password, with: "***")
  }
}
