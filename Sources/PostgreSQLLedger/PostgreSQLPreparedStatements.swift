/// The statements a connection has prepared, by their SQL, so each is parsed and planned once per
/// connection instead of once per use. Names belong to one libpq connection: when the connection
/// is replaced (a reconnect), the names start over.
struct PostgreSQLPreparedStatements {
  private var names: [String: String] = [:]
  private var connection: OpaquePointer?
  private var next = 0

  /// The name `sql` was prepared under on `connection`, if it was.
  mutating func name(of sql: String, on connection: OpaquePointer) -> String? {
    if self.connection != connection {
      names = [:]
      self.connection = connection
    }
    return names[sql]
  }

  /// A new name for `sql`, kept from now on; ``forget(_:)`` it if preparing it failed.
  mutating func reserve(_ sql: String, on connection: OpaquePointer) -> String {
    if self.connection != connection {
      names = [:]
      self.connection = connection
    }
    next += 1
    let name = "storefront_\(next)"
    names[sql] = name
    return name
  }

  mutating func forget(_ sql: String) { names.removeValue(forKey: sql) }

  /// Forgets every name (the connection closed).
  mutating func reset() {
    names = [:]
    connection = nil
  }
}
