import Foundation
import StoreEngine

extension SQLiteLedgerStore {
  /// Outbox entries after `sequence`, in order (at most `limit`).
  public func outbox(after sequence: Int64 = 0, limit: Int = 1_000) throws(LedgerError) -> [OutboxEntry] {
    try readOutbox(
      "SELECT seq, json, state, next_attempt, attempts, uuid, signed_payload FROM outbox WHERE seq > ?1 ORDER BY seq LIMIT ?2",
      bind: { statement throws(SQLiteFailure) in
        try statement.bind(sequence, at: 1)
        try statement.bind(Int64(limit), at: 2)
      })
  }

  /// The pending entries due at `now` (virtual time) that may go out now: for each original
  /// transaction only its oldest pending entry, so one chain's notifications arrive in order.
  public func dueNotifications(at now: Date, limit: Int = 100) throws(LedgerError) -> [OutboxEntry] {
    try readOutbox(
      """
      SELECT seq, json, state, next_attempt, attempts, uuid, signed_payload FROM outbox o
      WHERE state = 0 AND next_attempt <= ?1
        AND (original_id IS NULL OR NOT EXISTS (
          SELECT 1 FROM outbox e WHERE e.state = 0 AND e.original_id = o.original_id AND e.seq < o.seq))
      ORDER BY seq LIMIT ?2
      """,
      bind: { statement throws(SQLiteFailure) in
        try statement.bind(now.timeIntervalSince1970, at: 1)
        try statement.bind(Int64(limit), at: 2)
      })
  }

  /// When the next pending entry is due (virtual time), if any.
  public func nextNotificationDue() throws(LedgerError) -> Date? {
    var due: Date?
    do {
      let select = try connection.prepare("SELECT min(next_attempt) FROM outbox WHERE state = 0")
      try select.forEachRow { row in
        if !row.isNull(at: 0) { due = Date(timeIntervalSince1970: row.double(at: 0)) }
      }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    return due
  }

  /// Records what delivering entry `sequence` did: its attempts, its state and next attempt, and
  /// the UUID and signed payload fixed at the first attempt (never changed after).
  public func recordDelivery(of entry: OutboxEntry) throws(LedgerError) {
    guard !options.readOnly else { throw .readOnly(path: path) }
    let attempts: String
    do {
      attempts = try recordCoder.encode(entry.attempts)
    } catch {
      throw .writeFailed(path: path, reason: "the attempts of notification \(entry.sequence) could not be encoded (\(error)); report this bug")
    }
    do {
      let update = try connection.prepare(
        """
        UPDATE outbox SET state = ?2, next_attempt = ?3, attempts = ?4,
          uuid = coalesce(uuid, ?5), signed_payload = coalesce(signed_payload, ?6)
        WHERE seq = ?1
        """)
      try update.bind(entry.sequence, at: 1)
      try update.bind(Int64(entry.state.rawValue), at: 2)
      if let next = entry.nextAttempt { try update.bind(next.timeIntervalSince1970, at: 3) } else { try update.bindNull(at: 3) }
      try update.bind(attempts, at: 4)
      if let uuid = entry.notificationUUID { try update.bind(uuid, at: 5) } else { try update.bindNull(at: 5) }
      if let payload = entry.signedPayload { try update.bind(payload, at: 6) } else { try update.bindNull(at: 6) }
      try update.run()
    } catch {
      throw LedgerError(error, path: path, while: .writing)
    }
  }

  func readOutbox(
    _ sql: String, bind: (SQLiteStatement) throws(SQLiteFailure) -> Void
  ) throws(LedgerError) -> [OutboxEntry] {
    var entries: [OutboxEntry] = []
    var undecodable: Int64?
    do {
      let select = try connection.prepare(sql)
      try bind(select)
      try select.forEachRow { row in
        let sequence = row.int64(at: 0)
        guard let notification = try? recordCoder.decode(ServerNotification.self, from: row.text(at: 1)),
          let state = OutboxEntry.State(rawValue: Int(row.int64(at: 2))),
          let attempts = try? recordCoder.decode([DeliveryAttempt].self, from: row.text(at: 4))
        else {
          undecodable = undecodable ?? sequence
          return
        }
        entries.append(
          OutboxEntry(
            sequence: sequence, notification: notification, state: state,
            nextAttempt: row.isNull(at: 3) ? nil : Date(timeIntervalSince1970: row.double(at: 3)), attempts: attempts,
            notificationUUID: row.isNull(at: 5) ? nil : row.text(at: 5), signedPayload: row.isNull(at: 6) ? nil : row.text(at: 6)))
      }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    if let undecodable { throw .corrupt(path: path, reason: "the stored notification \(undecodable) could not be decoded") }
    return entries
  }
}
