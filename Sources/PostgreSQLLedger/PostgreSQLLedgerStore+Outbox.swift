import Foundation
import StoreEngine

extension PostgreSQLLedgerStore: NotificationOutbox {
  private static let entryColumns = "seq, json, state, next_attempt, attempts, uuid, signed_payload"

  /// Outbox entries after `sequence`, in commit order (at most `limit`).
  public func outbox(after sequence: Int64 = 0, limit: Int = 1_000) throws(LedgerError) -> [OutboxEntry] {
    try readOutbox(
      "SELECT \(Self.entryColumns) FROM outbox WHERE seq > $1 ORDER BY seq LIMIT $2", [.int(sequence), .int(Int64(limit))])
  }

  /// The pending entries of `environment` that may go out at `now` (virtual time): each chain's
  /// oldest pending entry, when it was never attempted or its retry is due.
  public func dueNotifications(at now: Date, environment: String, limit: Int = 100) throws(LedgerError) -> [OutboxEntry] {
    try readOutbox(
      """
      WITH heads (seq) AS (
        SELECT min(seq) FROM outbox WHERE state = 0 AND original_id IS NOT NULL GROUP BY original_id
        UNION ALL SELECT seq FROM outbox WHERE state = 0 AND original_id IS NULL)
      SELECT o.seq, o.json, o.state, o.next_attempt, o.attempts, o.uuid, o.signed_payload
      FROM heads JOIN outbox o ON o.seq = heads.seq
      WHERE (o.attempts = '[]' OR o.next_attempt <= $1) AND o.environment = $3
      ORDER BY o.seq LIMIT $2
      """, [.double(now.timeIntervalSince1970), .int(Int64(limit)), .text(environment)])
  }

  /// When the next pending entry is due (virtual time), if any.
  public func nextNotificationDue() throws(LedgerError) -> Date? {
    let result = try run { connection throws(PostgreSQLFailure) in
      try connection.execute("SELECT min(next_attempt) FROM outbox WHERE state = 0")
    }
    return result.double(0, 0).map { Date(timeIntervalSince1970: $0) }
  }

  /// Records what delivering entry `sequence` did; the UUID and signed payload of the first attempt
  /// are kept for good.
  public func recordDelivery(of entry: OutboxEntry) throws(LedgerError) {
    try recordDeliveries(of: [entry])
  }

  /// ``recordDelivery(of:)`` of several entries in one transaction.
  public func recordDeliveries(of entries: [OutboxEntry]) throws(LedgerError) {
    guard !options.readOnly else { throw .readOnly(path: name) }
    guard !entries.isEmpty else { return }
    var rows: [[PostgreSQLValue]] = []
    for entry in entries {
      let attempts: String
      do {
        attempts = try recordCoder.encode(entry.attempts)
      } catch {
        throw .writeFailed(path: name, reason: "the attempts of notification \(entry.sequence) could not be encoded (\(error)); report this bug")
      }
      rows.append([
        .int(entry.sequence), .int(Int64(entry.state.rawValue)), entry.nextAttempt.map { .double($0.timeIntervalSince1970) } ?? .null,
        .text(attempts), entry.notificationUUID.map { .text($0) } ?? .null, entry.signedPayload.map { .text($0) } ?? .null,
      ])
    }
    try transaction { connection throws(PostgreSQLFailure) in
      for row in rows {
        try connection.execute(
          """
          UPDATE outbox SET state = $2, next_attempt = $3, attempts = $4,
            uuid = coalesce(uuid, $5), signed_payload = coalesce(signed_payload, $6)
          WHERE seq = $1
          """, row)
      }
    }
  }

  /// Makes entry `sequence` pending again, due at `date`, keeping its attempts, UUID and payload.
  public func redeliver(_ sequence: Int64, at date: Date) throws(LedgerError) {
    guard !options.readOnly else { throw .readOnly(path: name) }
    // The notification wakes the serving client's deliverer, as a commit's does.
    try transaction { connection throws(PostgreSQLFailure) in
      try connection.execute(
        "UPDATE outbox SET state = 0, next_attempt = $2 WHERE seq = $1", [.int(sequence), .double(date.timeIntervalSince1970)])
      try connection.execute("SELECT pg_notify($1, 'outbox')", [.text(PostgreSQLSchema.channel)])
    }
  }

  /// The virtual clock as the last client that moved it left it; nil on a ledger that never kept one.
  public func virtualClock() throws(LedgerError) -> Date? {
    try value(of: PostgreSQLSchema.clockKey).flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
  }

  /// The notification URL set for `environment`, if any.
  public func notificationURL(environment: String) throws(LedgerError) -> String? {
    guard let url = try value(of: PostgreSQLSchema.notificationURLPrefix + environment), !url.isEmpty else { return nil }
    return url
  }

  /// The ledger's notification namespace: `proposed` if it has none yet (then kept), else the kept one.
  public func notificationNamespace(proposing proposed: UInt128) throws(LedgerError) -> UInt128 {
    if !options.readOnly {
      try run { connection throws(PostgreSQLFailure) in
        try connection.execute(
          "INSERT INTO kv (key, value) VALUES ('notification-namespace', $1) ON CONFLICT (key) DO NOTHING",
          [.text(String(proposed, radix: 16))])
      }
    }
    guard let text = try value(of: "notification-namespace") else { return proposed }
    guard let kept = UInt128(text, radix: 16) else {
      throw .corrupt(path: name, reason: "the notification namespace '\(text)' is not 32 hexadecimal digits")
    }
    return kept
  }

  private func value(of key: String) throws(LedgerError) -> String? {
    try run { connection throws(PostgreSQLFailure) in
      try connection.execute("SELECT value FROM kv WHERE key = $1", [.text(key)]).text(0, 0)
    }
  }

  private func readOutbox(_ sql: String, _ parameters: [PostgreSQLValue]) throws(LedgerError) -> [OutboxEntry] {
    let result = try run { connection throws(PostgreSQLFailure) in try connection.execute(sql, parameters) }
    var entries: [OutboxEntry] = []
    for row in 0..<result.rowCount {
      let sequence = result.int64(row, 0) ?? 0
      guard let notification = try? recordCoder.decode(ServerNotification.self, from: result.text(row, 1) ?? ""),
        let state = OutboxEntry.State(rawValue: Int(result.int64(row, 2) ?? -1)),
        let attempts = try? recordCoder.decode([DeliveryAttempt].self, from: result.text(row, 4) ?? "")
      else {
        throw .corrupt(path: name, reason: "the stored notification \(sequence) could not be decoded")
      }
      entries.append(
        OutboxEntry(
          sequence: sequence, notification: notification, state: state,
          nextAttempt: result.double(row, 3).map { Date(timeIntervalSince1970: $0) }, attempts: attempts,
          notificationUUID: result.text(row, 5), signedPayload: result.text(row, 6)))
    }
    return entries
  }
}
