import Foundation
import StoreEngine

extension PostgreSQLLedgerStore {
  /// A change as the statements that write it, encoded before the transaction begins.
  struct Statement {
    var sql: String
    var parameters: [PostgreSQLValue]
    var effect: Effect
    /// Statements to run only when this one changed a row, which takes a second round trip.
    var followUps: [(String, [PostgreSQLValue])] = []
  }

  /// What a statement's affected rows say, which decides whether a commit needs their count back
  /// before it can end (DECISIONS §29).
  enum Effect {
    /// It always changes a row (an outbox insert, an account put).
    case changes
    /// It changes rows only by stamping them with the commit's transaction id (an upsert that skips
    /// an identical row, or a statement that runs only after one did), so the server can tell.
    case stamps
    /// It may change nothing, and leaves no stamp (a delete): its count must come back first.
    case unknown
  }

  /// Applies `changes` in order as one transaction, committed on return.
  ///
  /// - Throws: ``LedgerError/readOnly(path:)``, ``LedgerError/busy(path:)`` after the retries,
  ///   ``LedgerError/unreachable(server:reason:)`` when the connection is lost (the server then
  ///   rolls the transaction back), ``LedgerError/writeFailed(path:reason:)``. Nothing of the
  ///   batch is written when it throws.
  public func commit(_ changes: [LedgerChange]) throws(LedgerError) {
    guard !options.readOnly else { throw .readOnly(path: name) }
    guard !changes.isEmpty else { return }
    if LedgerChange.hasPreconditions(changes) { return try commitExpectingOwners(changes) }
    let statements = try encode(changes)
    try transaction(nil, ifLanded: ()) { connection throws(PostgreSQLFailure) in try write(statements, after: "BEGIN", on: connection) }
    trimCommitLogNow()
  }

  /// Every ``trimInterval`` commits, keeps the log to its newest rows (DECISIONS §41). Best effort
  /// and after the commit: a trim that fails is done by the next.
  func trimCommitLogNow() {
    commitsSinceTrim += 1
    guard commitsSinceTrim >= Self.trimInterval else { return }
    commitsSinceTrim = 0
    _ = try? run { connection throws(PostgreSQLFailure) in try connection.execute(PostgreSQLSchema.trimCommitLog) }
  }

  static var trimInterval: Int { 256 }

  /// Runs `statements` in a transaction, its rows stamped with the transaction's id, and ends it:
  /// `begin` (when given) opens it. Notifies listeners only when a row really changed (a replayed
  /// batch moves nothing and wakes nobody). No global lock: commits of different rows overlap (and
  /// share WAL flushes); the feed orders them by snapshot (``PostgreSQLFeedMark``).
  ///
  /// Two round trips when the server can tell whether a row changed (every statement
  /// ``Effect/changes`` or ``Effect/stamps``): `BEGIN` with the stamp read back (``pendingStamp``,
  /// so a COMMIT lost in flight can be looked up, DECISIONS §27), then the writes, `COMMIT` and the
  /// `NOTIFY` after it together. Otherwise three: the counts come back before the follow-ups,
  /// `COMMIT` and `NOTIFY`, or `ROLLBACK`. The `NOTIFY` is sent only once the commit is
  /// (``PostgreSQLSchema/announce``); when it fails, the commit stands and listeners find it on
  /// their fallback poll.
  func write(_ statements: [Statement], after begin: String?, on connection: PostgreSQLConnection) throws(PostgreSQLFailure) {
    let opening: [(String, [PostgreSQLValue])] = (begin.map { [($0, [])] } ?? []) + [(PostgreSQLSchema.selectStamp, [])]
    pendingStamp = try connection.pipeline(opening).last?.int64(0, 0)
    let writes = statements.map { ($0.sql, $0.parameters) }
    if statements.allSatisfy({ $0.effect != .unknown && $0.followUps.isEmpty }) {
      let certain = statements.contains { $0.effect == .changes }
      let note = certain ? PostgreSQLSchema.noteAnnouncement : PostgreSQLSchema.noteAnnouncementIfStamped
      commitSent = true
      try connection.pipeline(writes + [(note, []), ("COMMIT", []), (PostgreSQLSchema.announce, [])], optional: 1)
      noteOwnCommit()
      return
    }
    let results = try connection.pipeline(writes)
    var changed = 0
    var ending: [(String, [PostgreSQLValue])] = []
    for (statement, result) in zip(statements, results) where result.affectedRows > 0 {
      changed += result.affectedRows
      ending += statement.followUps
    }
    guard changed > 0 else {
      try connection.pipeline([("ROLLBACK", [])])
      return
    }
    commitSent = true
    try connection.pipeline(ending + [(PostgreSQLSchema.noteAnnouncement, []), ("COMMIT", []), (PostgreSQLSchema.announce, [])], optional: 1)
    noteOwnCommit()
  }

  /// Remembers the stamp of the commit that just landed as this client's own.
  private func noteOwnCommit() {
    guard let stamp = pendingStamp else { return }
    ownStamps.insert(UInt64(bitPattern: stamp))
    // A client that never reads the log keeps only its recent stamps.
    if ownStamps.count > 4096, let oldest = ownStamps.min() { ownStamps.remove(oldest) }
  }

  func encode(_ changes: [LedgerChange]) throws(LedgerError) -> [Statement] {
    var statements: [Statement] = []
    statements.reserveCapacity(changes.count)
    for change in changes {
      switch change {
      // The full row: PostgreSQL reads the flag from the JSON (one put per finish; SQLite writes the flag alone).
      case .putTransaction(let transaction), .finishTransaction(let transaction):
        let json: String
        do {
          json = try coder.encode(transaction)
        } catch {
          throw .writeFailed(path: name, reason: "transaction \(transaction.id) could not be encoded (\(error)); report this bug")
        }
        let id = PostgreSQLValue.int(Int64(bitPattern: transaction.id.rawValue))
        let original = PostgreSQLValue.int(Int64(bitPattern: transaction.originalID.rawValue))
        let statement = Statement(
          sql: PostgreSQLSchema.upsertTransaction,
          parameters: [
            id, .text(transaction.account), .text(transaction.productID.rawValue), .int(Int64(transaction.state.rawValue)),
            .bool(transaction.isFinished), original, .double(transaction.purchaseDate.timeIntervalSince1970),
            .text(transaction.productKind.rawValue), .bool(transaction.expiresDate != nil), .text(json),
            .int(transaction.lastModifiedMilliseconds), .int(PostgreSQLSchema.idKey(transaction.id.rawValue)),
            .int(Int64(transaction.quantity)), .bool(transaction.revocationDate != nil),
            RevocationKey(transaction).map { .int($0.milliseconds) } ?? .null,
          ], effect: .stamps)
        statements.append(statement)
        if transaction.productKind != .consumable {
          statements.append(
            Statement(
              sql: PostgreSQLSchema.noteChain,
              parameters: [original, id, .bool(transaction.state == .purchased && transaction.expiresDate != nil)], effect: .stamps))
        }
      case .putAccount(let account):
        do {
          statements.append(
            Statement(sql: PostgreSQLSchema.upsertAccount, parameters: [.text(account.name), .text(try coder.encode(account))], effect: .changes))
        } catch {
          throw .writeFailed(path: name, reason: "account '\(account.name)' could not be encoded (\(error)); report this bug")
        }
      case .clearHistory(let account):
        statements.append(Statement(sql: PostgreSQLSchema.clearChains, parameters: [.text(account)], effect: .unknown))
        statements.append(Statement(sql: PostgreSQLSchema.clearHistory, parameters: [.text(account)], effect: .unknown))
        statements.append(Statement(sql: PostgreSQLSchema.clearRequests, parameters: [.text(account)], effect: .unknown))
      case .putSubscription(let record):
        let id = PostgreSQLValue.int(Int64(bitPattern: record.originalID.rawValue))
        do {
          statements.append(
            Statement(
              sql: PostgreSQLSchema.upsertSubscription, parameters: [id, .text(record.account), .text(try recordCoder.encode(record))],
              effect: .stamps))
          statements.append(
            Statement(
              sql: PostgreSQLSchema.markChainEnded, parameters: [id, .bool(record.status == .expired || record.status == .revoked)],
              effect: .stamps))
        } catch {
          throw .writeFailed(
            path: name, reason: "the subscription record of \(record.originalID) could not be encoded (\(error)); report this bug")
        }
      case .removeSubscription(let id):
        statements.append(
          Statement(sql: PostgreSQLSchema.deleteSubscription, parameters: [.int(Int64(bitPattern: id.rawValue))], effect: .unknown))
      case .putAskToBuyRequest(let request):
        do {
          statements.append(
            Statement(
              sql: PostgreSQLSchema.upsertRequest,
              parameters: [
                .int(Int64(bitPattern: request.id.rawValue)), .text(request.account), .bool(request.isOpen),
                .text(try recordCoder.encode(request)),
              ], effect: .stamps))
        } catch {
          throw .writeFailed(path: name, reason: "the Ask to Buy request \(request.id) could not be encoded (\(error)); report this bug")
        }
      case .deleteTransaction(let id):
        statements.append(
          Statement(
            sql: PostgreSQLSchema.deleteTransaction, parameters: [.int(Int64(bitPattern: id.rawValue))], effect: .unknown,
            followUps: [(PostgreSQLSchema.repairChains, []), (PostgreSQLSchema.dropEmptyChains, [])]))
      case .putMassExtension(let request):
        do {
          statements.append(
            Statement(
              sql: PostgreSQLSchema.upsertMassExtension,
              parameters: [.text(request.productID.rawValue), .text(request.requestID), .text(try recordCoder.encode(request))],
              effect: .unknown))
        } catch {
          throw .writeFailed(path: name, reason: "the mass extension '\(request.requestID)' could not be encoded (\(error)); report this bug")
        }
      case .putNotification(let notification):
        do {
          statements.append(
            Statement(
              sql: PostgreSQLSchema.insertNotification,
              parameters: [
                notification.originalTransactionID.map { .int(Int64(bitPattern: $0.rawValue)) } ?? .null,
                notification.environment.map { .text($0) } ?? .null, .text(try recordCoder.encode(notification)),
                .double(notification.date.timeIntervalSince1970),
              ], effect: .changes))
        } catch {
          throw .writeFailed(
            path: name,
            reason: "a \(notification.notificationType.rawValue) notification could not be encoded (\(error)); report this bug")
        }
      case .setNotificationURL(let environment, let url):
        statements.append(value(PostgreSQLSchema.notificationURLPrefix + environment, url ?? ""))
      case .setDeviceValue(let key, let value):
        statements.append(self.value(PostgreSQLSchema.devicePrefix + key, value ?? ""))
      case .setCurrentAccount(let account):
        statements.append(value(PostgreSQLSchema.accountKey, account ?? ""))
      case .setClock(let date):
        statements.append(value(PostgreSQLSchema.clockKey, String(date.timeIntervalSince1970)))
      case .expectOwner, .expectDeviceValue: break  // Preconditions: ownerViolation(of:on:) checks them before the writes.
      }
    }
    // The commit's log record, last: removals logged themselves (the ids they removed).
    let logged = changes.filter { change in
      switch change {
      case .clearHistory, .deleteTransaction, .removeSubscription: false
      default: true
      }
    }
    let entries = CommitLog.entries(for: logged) { _ in [] }
    if !entries.isEmpty {
      let certain = changes.contains { if case .putAccount = $0 { true } else { false } }
      statements.append(
        Statement(
          sql: PostgreSQLSchema.insertCommit,
          parameters: [.text(String(decoding: CommitLog.encode(entries), as: UTF8.self)), .bool(certain)], effect: .stamps))
    }
    return statements
  }

  private func value(_ key: String, _ value: String) -> Statement {
    Statement(sql: PostgreSQLSchema.upsertValue, parameters: [.text(key), .text(value)], effect: .stamps)
  }
}
