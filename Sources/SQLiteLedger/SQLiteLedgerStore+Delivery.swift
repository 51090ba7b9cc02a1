import Foundation
import StoreEngine

/// What the process that delivers notifications reads besides the outbox: the shared virtual clock,
/// the notification URLs and the ledger's notification namespace.
extension SQLiteLedgerStore {
  /// kv key of the 128-bit namespace `notificationUUID`s are derived from (32 hex digits).
  static let notificationNamespaceKey = "notification-namespace"

  /// ``dueNotifications(at:limit:)`` of one signing environment only (`Sandbox` or `Production`),
  /// each serving process delivering its own environment's, where an entry never attempted is due
  /// whatever the clock: it was queued at its process's present, and a process whose clock never
  /// moved (a scenario without `advance`) kept no clock in the ledger. Retries wait for `now`.
  ///
  /// Each chain's head (its oldest pending entry) is found by one grouped scan of the pending
  /// entries' small delivery rows (the index on state and chain), so the query grows as n log n
  /// with the backlog, and only the heads taken read their notification's row.
  public func dueNotifications(at now: Date, environment: String, limit: Int = 100) throws(LedgerError) -> [OutboxEntry] {
    try readOutbox(
      """
      WITH heads (seq) AS (
        SELECT min(seq) FROM outbox_delivery WHERE state = 0 AND original_id IS NOT NULL GROUP BY original_id
        UNION ALL SELECT seq FROM outbox_delivery WHERE state = 0 AND original_id IS NULL)
      SELECT o.seq, o.json, d.state, d.next_attempt, d.attempts, s.uuid, s.signed_payload
      FROM heads JOIN outbox_delivery d ON d.seq = heads.seq JOIN outbox o ON o.seq = heads.seq
        LEFT JOIN outbox_sent s ON s.seq = heads.seq
      WHERE (d.attempts = '[]' OR d.next_attempt <= ?1) AND d.environment = ?3
      ORDER BY heads.seq LIMIT ?2
      """,
      bind: { statement throws(SQLiteFailure) in
        try statement.bind(now.timeIntervalSince1970, at: 1)
        try statement.bind(Int64(limit), at: 2)
        try statement.bind(environment, at: 3)
      })
  }

  /// ``recordDelivery(of:)`` of several entries in one transaction (one sync to disk, not one each).
  public func recordDeliveries(of entries: [OutboxEntry]) throws(LedgerError) {
    guard entries.count > 1 else {
      if let entry = entries.first { try recordDelivery(of: entry) }
      return
    }
    guard !options.readOnly else { throw .readOnly(path: path) }
    let statements = try preparedStatements()
    do {
      try statements.begin.run()
    } catch {
      throw LedgerError(error, path: path, while: .writing)
    }
    defer { if !connection.isAutocommit { try? statements.rollback.run() } }
    for entry in entries { try recordDelivery(of: entry) }
    do {
      try statements.commit.run()
    } catch {
      throw LedgerError(error, path: path, while: .writing)
    }
  }

  /// SQLite's `data_version`: it changes when another connection commits (not when this one does),
  /// a look at shared memory that reads no page.
  public func dataVersion() throws(LedgerError) -> Int64 {
    do {
      return try connection.integer("PRAGMA data_version")
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
  }

  /// The virtual clock as the last process that moved it left it; nil on a ledger that never kept one.
  public func virtualClock() throws(LedgerError) -> Date? {
    guard let text = try value(of: LedgerSchema.clockKey), let seconds = Double(text) else { return nil }
    return Date(timeIntervalSince1970: seconds)
  }

  /// The notification URL set for `environment`, if any.
  public func notificationURL(environment: String) throws(LedgerError) -> String? {
    guard let url = try value(of: LedgerSchema.notificationURLPrefix + environment), !url.isEmpty else { return nil }
    return url
  }

  /// The ledger's notification namespace: `proposed` if the ledger has none yet (it is then kept),
  /// else the one kept, so every process and every restart derives the same UUIDs.
  public func notificationNamespace(proposing proposed: UInt128) throws(LedgerError) -> UInt128 {
    if !options.readOnly {
      do {
        let insert = try connection.prepare("INSERT INTO kv (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO NOTHING")
        try insert.bind(Self.notificationNamespaceKey, at: 1)
        try insert.bind(String(proposed, radix: 16), at: 2)
        try insert.run()
      } catch {
        throw LedgerError(error, path: path, while: .writing)
      }
    }
    guard let text = try value(of: Self.notificationNamespaceKey) else { return proposed }
    guard let kept = UInt128(text, radix: 16) else {
      throw .corrupt(path: path, reason: "the notification namespace '\(text)' is not 32 hexadecimal digits")
    }
    return kept
  }

  private func value(of key: String) throws(LedgerError) -> String? {
    var found: String?
    let statements = try preparedStatements()
    do {
      let select = statements.selectValue
      try select.bind(key, at: 1)
      try select.forEachRow { row in found = row.text(at: 0) }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    return found
  }
}
