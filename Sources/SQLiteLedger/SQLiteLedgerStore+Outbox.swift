import Foundation
import StoreEngine

extension SQLiteLedgerStore {
  /// Outbox entries after `sequence`, in order (at most `limit`).
  public func outbox(after sequence: Int64 = 0, limit: Int = 1_000) throws(LedgerError) -> [OutboxEntry] {
    try readOutbox(
      "\(Self.outboxColumns) WHERE o.seq > ?1 ORDER BY o.seq LIMIT ?2",
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
      \(Self.outboxColumns)
      WHERE d.state = 0 AND d.next_attempt <= ?1
        AND (d.original_id IS NULL OR NOT EXISTS (
          SELECT 1 FROM outbox_delivery e WHERE e.state = 0 AND e.original_id = d.original_id AND e.seq < d.seq))
      ORDER BY o.seq LIMIT ?2
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
      let select = try connection.prepare("SELECT min(next_attempt) FROM outbox_delivery WHERE state = 0")
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
  ///
  /// Two small writes (schema v6): the state row is rewritten, the payload inserted once, so neither
  /// rewrites the notification's own row.
  public func recordDelivery(of entry: OutboxEntry) throws(LedgerError) {
    guard !options.readOnly else { throw .readOnly(path: path) }
    let attempts: String
    do {
      attempts = try recordCoder.encode(entry.attempts)
    } catch {
      throw .writeFailed(path: path, reason: "the attempts of notification \(entry.sequence) could not be encoded (\(error)); report this bug")
    }
    let statements = try preparedStatements()
    do {
      let update = statements.updateDelivery
      try update.bind(entry.sequence, at: 1)
      try update.bind(Int64(entry.state.rawValue), at: 2)
      if let next = entry.nextAttempt { try update.bind(next.timeIntervalSince1970, at: 3) } else { try update.bindNull(at: 3) }
      try update.bind(attempts, at: 4)
      try update.run()
      guard let uuid = entry.notificationUUID, let payload = entry.signedPayload else { return }
      let insert = statements.insertSent
      try insert.bind(entry.sequence, at: 1)
      try insert.bind(uuid, at: 2)
      try insert.bind(payload, at: 3)
      try insert.run()
    } catch {
      throw LedgerError(error, path: path, while: .writing)
    }
  }

  /// The columns ``readOutbox(_:bind:)`` reads, from the outbox joined with its delivery state
  /// (`d`) and what was sent (`s`); a query adds its WHERE and ORDER BY.
  static let outboxColumns = """
    SELECT o.seq, o.json, d.state, d.next_attempt, d.attempts, s.uuid, s.signed_payload
    FROM outbox o JOIN outbox_delivery d ON d.seq = o.seq LEFT JOIN outbox_sent s ON s.seq = o.seq
    """

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
