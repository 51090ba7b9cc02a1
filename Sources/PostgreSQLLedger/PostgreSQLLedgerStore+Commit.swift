import Foundation
import StoreEngine

extension PostgreSQLLedgerStore {
  /// A change as the statements that write it, encoded before the transaction begins.
  struct Statement {
    var sql: String
    var parameters: [PostgreSQLValue]
    /// Statements that keep `chains` in step with a transaction row, run only when the row changed.
    var followUps: [(String, [PostgreSQLValue])] = []
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
    if changes.contains(where: { $0.ownerExpectation != nil }) { return try commitExpectingOwners(changes) }
    let statements = try encode(changes)
    try transaction { connection throws(PostgreSQLFailure) in try write(statements, on: connection) }
  }

  /// Runs `statements` inside the open transaction, its rows stamped with the transaction's id;
  /// notifies listeners only when a row really changed, else rolls back (a replayed batch moves
  /// nothing). No global lock: commits of different rows overlap (and share WAL flushes); the feed
  /// orders them by snapshot (``PostgreSQLFeedMark``).
  func write(_ statements: [Statement], on connection: PostgreSQLConnection) throws(PostgreSQLFailure) {
    let stamp = try connection.execute(PostgreSQLSchema.selectStamp).int64(0, 0) ?? 0
    var changed = 0
    for statement in statements {
      let parameters = statement.parameters.map { $0 == Self.stampPlaceholder ? .int(stamp) : $0 }
      let affected = try connection.execute(statement.sql, parameters).affectedRows
      changed += affected
      if affected > 0 {
        for (sql, followUp) in statement.followUps { try connection.execute(sql, followUp) }
      }
    }
    if changed == 0 {
      try connection.execute("ROLLBACK")
      try connection.execute("BEGIN")
      return
    }
    pendingStamp = stamp
    try connection.execute("SELECT pg_notify($1, $2)", [.text(PostgreSQLSchema.channel), .text(String(stamp))])
  }

  /// Stands for the commit's stamp (its transaction id) among a statement's parameters until it is known.
  static let stampPlaceholder = PostgreSQLValue.text("\u{0}stamp")

  func encode(_ changes: [LedgerChange]) throws(LedgerError) -> [Statement] {
    var statements: [Statement] = []
    statements.reserveCapacity(changes.count)
    for change in changes {
      switch change {
      case .putTransaction(let transaction):
        let json: String
        do {
          json = try coder.encode(transaction)
        } catch {
          throw .writeFailed(path: name, reason: "transaction \(transaction.id) could not be encoded (\(error)); report this bug")
        }
        let id = PostgreSQLValue.int(Int64(bitPattern: transaction.id.rawValue))
        let original = PostgreSQLValue.int(Int64(bitPattern: transaction.originalID.rawValue))
        var statement = Statement(
          sql: PostgreSQLSchema.upsertTransaction,
          parameters: [
            id, .text(transaction.account), .text(transaction.productID.rawValue), .int(Int64(transaction.state.rawValue)),
            .bool(transaction.isFinished), original, .double(transaction.purchaseDate.timeIntervalSince1970),
            .text(transaction.productKind.rawValue), .bool(transaction.expiresDate != nil), Self.stampPlaceholder, .text(json),
          ])
        if transaction.productKind != .consumable {
          statement.followUps = [
            (PostgreSQLSchema.noteChain, [original, id, .bool(transaction.state == .purchased && transaction.expiresDate != nil)])
          ]
        }
        statements.append(statement)
      case .putAccount(let account):
        do {
          statements.append(Statement(sql: PostgreSQLSchema.upsertAccount, parameters: [.text(account.name), .text(try coder.encode(account))]))
        } catch {
          throw .writeFailed(path: name, reason: "account '\(account.name)' could not be encoded (\(error)); report this bug")
        }
      case .clearHistory(let account):
        statements.append(Statement(sql: PostgreSQLSchema.clearChains, parameters: [.text(account)]))
        statements.append(Statement(sql: PostgreSQLSchema.clearHistory, parameters: [.text(account)]))
        statements.append(Statement(sql: PostgreSQLSchema.clearRequests, parameters: [.text(account)]))
      case .putSubscription(let record):
        let id = PostgreSQLValue.int(Int64(bitPattern: record.originalID.rawValue))
        do {
          statements.append(
            Statement(
              sql: PostgreSQLSchema.upsertSubscription,
              parameters: [id, .text(record.account), .text(try recordCoder.encode(record)), Self.stampPlaceholder],
              followUps: [(PostgreSQLSchema.markChainEnded, [id, .bool(record.status == .expired || record.status == .revoked)])]))
        } catch {
          throw .writeFailed(
            path: name, reason: "the subscription record of \(record.originalID) could not be encoded (\(error)); report this bug")
        }
      case .removeSubscription(let id):
        statements.append(Statement(sql: PostgreSQLSchema.deleteSubscription, parameters: [.int(Int64(bitPattern: id.rawValue))]))
      case .putAskToBuyRequest(let request):
        do {
          statements.append(
            Statement(
              sql: PostgreSQLSchema.upsertRequest,
              parameters: [
                .int(Int64(bitPattern: request.id.rawValue)), .text(request.account), .bool(request.isOpen),
                .text(try recordCoder.encode(request)), Self.stampPlaceholder,
              ]))
        } catch {
          throw .writeFailed(path: name, reason: "the Ask to Buy request \(request.id) could not be encoded (\(error)); report this bug")
        }
      case .deleteTransaction(let id):
        statements.append(
          Statement(
            sql: PostgreSQLSchema.deleteTransaction, parameters: [.int(Int64(bitPattern: id.rawValue))],
            followUps: [(PostgreSQLSchema.repairChains, []), (PostgreSQLSchema.dropEmptyChains, [])]))
      case .putMassExtension(let request):
        do {
          statements.append(
            Statement(
              sql: PostgreSQLSchema.upsertMassExtension,
              parameters: [.text(request.productID.rawValue), .text(request.requestID), .text(try recordCoder.encode(request))]))
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
              ]))
        } catch {
          throw .writeFailed(
            path: name,
            reason: "a \(notification.notificationType.rawValue) notification could not be encoded (\(error)); report this bug")
        }
      case .setNotificationURL(let environment, let url):
        statements.append(value(PostgreSQLSchema.notificationURLPrefix + environment, url ?? ""))
      case .setCurrentAccount(let account):
        statements.append(value(PostgreSQLSchema.accountKey, account ?? ""))
      case .setClock(let date):
        statements.append(value(PostgreSQLSchema.clockKey, String(date.timeIntervalSince1970)))
      case .expectOwner: break  // A precondition: ownerViolation(of:on:) checks it before the writes.
      }
    }
    return statements
  }

  private func value(_ key: String, _ value: String) -> Statement {
    Statement(sql: PostgreSQLSchema.upsertValue, parameters: [.text(key), .text(value), Self.stampPlaceholder])
  }
}
