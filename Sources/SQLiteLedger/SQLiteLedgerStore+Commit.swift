import Foundation
import StoreEngine

extension SQLiteLedgerStore {
  /// A change with its JSON already encoded.
  enum EncodedChange {
    /// `row`: the deflated JSON, or the JSON text itself when it is small (`text`); `lastModified`:
    /// its ``PaymentTransaction/lastModifiedMilliseconds``, read from its JWS before the write lock.
    case transaction(PaymentTransaction, row: Data, text: String?, lastModified: Int64)
    /// A finish: the row's flag alone.
    case finish(PaymentTransaction.ID)
    case account(name: String, json: String)
    case clearHistory(account: String)
    case subscription(PaymentTransaction.ID, account: String, json: String, ended: Bool)
    case removeSubscription(PaymentTransaction.ID)
    case request(PaymentTransaction.ID, account: String, open: Bool, json: String)
    case deleteTransaction(PaymentTransaction.ID)
    case massExtension(productID: String, requestID: String, json: String)
    case notification(original: PaymentTransaction.ID?, json: String, due: Date)
    case value(key: String, value: String)
    case header(hash: String, header: String)
  }

  /// The statements every commit and load uses, prepared once per connection.
  final class Statements {
    let begin: SQLiteStatement
    let beginRead: SQLiteStatement
    let commit: SQLiteStatement
    let rollback: SQLiteStatement
    let upsertTransaction: SQLiteStatement
    let noteChain: SQLiteStatement
    let upsertAccount: SQLiteStatement
    let clearChains: SQLiteStatement
    let clearHistory: SQLiteStatement
    let upsertValue: SQLiteStatement
    let upsertSubscription: SQLiteStatement
    let deleteSubscription: SQLiteStatement
    let insertHeader: SQLiteStatement
    let selectWorkingSet: SQLiteStatement
    let selectHistory: SQLiteStatement
    let selectTransactionJSON: SQLiteStatement
    let selectAccounts: SQLiteStatement
    let selectValues: SQLiteStatement
    let selectSubscriptions: SQLiteStatement
    let selectHeaders: SQLiteStatement
    let bumpChangeCounter: SQLiteStatement
    let markChainEnded: SQLiteStatement
    let selectChangeCounter: SQLiteStatement
    let insertCommit: SQLiteStatement
    let selectCommits: SQLiteStatement
    let selectCommitLogFloor: SQLiteStatement
    let trimCommitLog: SQLiteStatement
    let noteCommitLogFloor: SQLiteStatement
    let selectAccountTransactionIDs: SQLiteStatement
    let clearRequests: SQLiteStatement
    let upsertRequest: SQLiteStatement
    let selectOpenRequests: SQLiteStatement
    let deleteTransaction: SQLiteStatement
    let upsertMassExtension: SQLiteStatement
    let insertNotification: SQLiteStatement
    let selectMassExtension: SQLiteStatement
    let repairChains: SQLiteStatement
    let dropEmptyChains: SQLiteStatement
    let updateDelivery: SQLiteStatement
    let insertSent: SQLiteStatement
    let selectValue: SQLiteStatement
    let finishTransaction: SQLiteStatement
    /// History pages and the consumable-units aggregate, prepared when first used, by their SQL.
    private var reads: [String: SQLiteStatement] = [:]

    /// The statement for `sql` (a history read), prepared on its first use.
    func historyPage(_ sql: String, on connection: SQLiteConnection) throws(SQLiteFailure) -> SQLiteStatement {
      if let prepared = reads[sql] { return prepared }
      let prepared = try connection.prepare(sql, persistent: true)
      reads[sql] = prepared
      return prepared
    }

    init(_ connection: SQLiteConnection) throws(SQLiteFailure) {
      begin = try connection.prepare("BEGIN IMMEDIATE", persistent: true)
      beginRead = try connection.prepare("BEGIN DEFERRED", persistent: true)
      commit = try connection.prepare("COMMIT", persistent: true)
      rollback = try connection.prepare("ROLLBACK", persistent: true)
      upsertTransaction = try connection.prepare(LedgerSchema.upsertTransaction, persistent: true)
      noteChain = try connection.prepare(LedgerSchema.noteChain, persistent: true)
      upsertAccount = try connection.prepare(LedgerSchema.upsertAccount, persistent: true)
      clearChains = try connection.prepare(LedgerSchema.clearChains, persistent: true)
      clearHistory = try connection.prepare(LedgerSchema.clearHistory, persistent: true)
      upsertValue = try connection.prepare(LedgerSchema.upsertValue, persistent: true)
      upsertSubscription = try connection.prepare(LedgerSchema.upsertSubscription, persistent: true)
      deleteSubscription = try connection.prepare(LedgerSchema.deleteSubscription, persistent: true)
      insertHeader = try connection.prepare(LedgerSchema.insertHeader, persistent: true)
      selectWorkingSet = try connection.prepare(LedgerSchema.selectWorkingSet, persistent: true)
      selectHistory = try connection.prepare(LedgerSchema.selectHistory, persistent: true)
      selectTransactionJSON = try connection.prepare(LedgerSchema.selectTransactionJSON, persistent: true)
      selectAccounts = try connection.prepare(LedgerSchema.selectAccounts, persistent: true)
      selectValues = try connection.prepare(LedgerSchema.selectValues, persistent: true)
      selectSubscriptions = try connection.prepare(LedgerSchema.selectSubscriptions, persistent: true)
      selectHeaders = try connection.prepare(LedgerSchema.selectHeaders, persistent: true)
      bumpChangeCounter = try connection.prepare(LedgerSchema.bumpChangeCounter, persistent: true)
      markChainEnded = try connection.prepare(LedgerSchema.markChainEnded, persistent: true)
      selectChangeCounter = try connection.prepare(LedgerSchema.selectChangeCounter, persistent: true)
      insertCommit = try connection.prepare(LedgerSchema.insertCommit, persistent: true)
      selectCommits = try connection.prepare(LedgerSchema.selectCommits, persistent: true)
      selectCommitLogFloor = try connection.prepare(LedgerSchema.selectCommitLogFloor, persistent: true)
      trimCommitLog = try connection.prepare(LedgerSchema.trimCommitLog, persistent: true)
      noteCommitLogFloor = try connection.prepare(LedgerSchema.noteCommitLogFloor, persistent: true)
      selectAccountTransactionIDs = try connection.prepare(LedgerSchema.selectAccountTransactionIDs, persistent: true)
      clearRequests = try connection.prepare(LedgerSchema.clearRequests, persistent: true)
      upsertRequest = try connection.prepare(LedgerSchema.upsertRequest, persistent: true)
      selectOpenRequests = try connection.prepare(LedgerSchema.selectOpenRequests, persistent: true)
      deleteTransaction = try connection.prepare(LedgerSchema.deleteTransaction, persistent: true)
      upsertMassExtension = try connection.prepare(LedgerSchema.upsertMassExtension, persistent: true)
      insertNotification = try connection.prepare(LedgerSchema.insertNotification, persistent: true)
      selectMassExtension = try connection.prepare(LedgerSchema.selectMassExtension, persistent: true)
      repairChains = try connection.prepare(LedgerSchema.repairChains, persistent: true)
      dropEmptyChains = try connection.prepare(LedgerSchema.dropEmptyChains, persistent: true)
      updateDelivery = try connection.prepare(LedgerSchema.updateDelivery, persistent: true)
      insertSent = try connection.prepare(LedgerSchema.insertSent, persistent: true)
      selectValue = try connection.prepare(LedgerSchema.selectValue, persistent: true)
      finishTransaction = try connection.prepare(LedgerSchema.finishTransaction, persistent: true)
    }
  }

  func encode(_ changes: [LedgerChange]) throws(LedgerError) -> [EncodedChange] {
    var encoded: [EncodedChange] = []
    encoded.reserveCapacity(changes.count)
    for change in changes {
      switch change {
      case .putTransaction(let transaction):
        let (stored, headers) = headers.compact(transaction)
        for (hash, header) in headers { encoded.append(.header(hash: hash, header: header)) }
        let json: String
        do {
          json = try coder.encode(stored)
        } catch {
          throw .writeFailed(
            path: path, reason: "transaction \(transaction.id) could not be encoded (\(error)); report this bug")
        }
        // Read from the stored JWS (the same payload): its header is a short reference, not the
        // ~4.7 KB chain that the scan for the payload would walk byte by byte.
        let lastModified = stored.lastModifiedMilliseconds
        // A row without signed data fits a page with others as it is; deflating it saves little.
        if json.utf8.count <= RowCompression.threshold {
          encoded.append(.transaction(transaction, row: Data(), text: json, lastModified: lastModified))
        } else if let row = RowCompression.deflate(json) {
          encoded.append(.transaction(transaction, row: row, text: nil, lastModified: lastModified))
        } else {
          throw .writeFailed(path: path, reason: "transaction \(transaction.id) could not be compressed; report this bug")
        }
      case .finishTransaction(let transaction): encoded.append(.finish(transaction.id))
      case .putAccount(let account):
        do {
          encoded.append(.account(name: account.name, json: try coder.encode(account)))
        } catch {
          throw .writeFailed(
            path: path, reason: "account '\(account.name)' could not be encoded (\(error)); report this bug")
        }
      case .clearHistory(let account): encoded.append(.clearHistory(account: account))
      case .putSubscription(let record):
        do {
          encoded.append(.subscription(
            record.originalID, account: record.account, json: try recordCoder.encode(record),
            ended: record.status == .expired || record.status == .revoked))
        } catch {
          throw .writeFailed(
            path: path, reason: "the subscription record of \(record.originalID) could not be encoded (\(error)); report this bug")
        }
      case .removeSubscription(let id): encoded.append(.removeSubscription(id))
      case .putAskToBuyRequest(let request):
        do {
          encoded.append(.request(request.id, account: request.account, open: request.isOpen, json: try recordCoder.encode(request)))
        } catch {
          throw .writeFailed(
            path: path, reason: "the Ask to Buy request \(request.id) could not be encoded (\(error)); report this bug")
        }
      case .deleteTransaction(let id): encoded.append(.deleteTransaction(id))
      case .putNotification(let notification):
        do {
          encoded.append(.notification(
            original: notification.originalTransactionID, json: try recordCoder.encode(notification), due: notification.date))
        } catch {
          throw .writeFailed(
            path: path, reason: "a \(notification.notificationType.rawValue) notification could not be encoded (\(error)); report this bug")
        }
      case .setNotificationURL(let environment, let url):
        encoded.append(.value(key: LedgerSchema.notificationURLPrefix + environment, value: url ?? ""))
      case .setDeviceValue(let key, let value):
        encoded.append(.value(key: LedgerSchema.devicePrefix + key, value: value ?? ""))
      case .putMassExtension(let request):
        do {
          encoded.append(.massExtension(
            productID: request.productID.rawValue, requestID: request.requestID, json: try recordCoder.encode(request)))
        } catch {
          throw .writeFailed(
            path: path, reason: "the mass extension '\(request.requestID)' could not be encoded (\(error)); report this bug")
        }
      case .setCurrentAccount(let name): encoded.append(.value(key: LedgerSchema.accountKey, value: name ?? ""))
      case .setClock(let date): encoded.append(.value(key: LedgerSchema.clockKey, value: String(date.timeIntervalSince1970)))
      case .expectOwner, .expectDeviceValue: break  // Preconditions, checked by commit(_:) before any write.
      }
    }
    return encoded
  }

  /// Applies `encoded` (the encoding of `changes`) inside the open write transaction. The rows it
  /// writes carry the next value of the change counter, which is stored only when a row really
  /// changed (a replayed batch changes nothing, not even the counter); then the commit's record
  /// goes into the commit log at that position, in the same transaction (DECISIONS §41).
  /// Returns the position logged, nil when nothing changed.
  @discardableResult
  func apply(_ encoded: [EncodedChange], logging changes: [LedgerChange], with statements: Statements) throws(SQLiteFailure) -> Int64? {
    var current: Int64 = 0
    try statements.selectChangeCounter.forEachRow { row in current = row.int64(at: 0) }
    // What a clear removes is read before it removes it: the log names the exact rows.
    var cleared: [String: [PaymentTransaction.ID]] = [:]
    for change in changes {
      guard case .clearHistory(let account) = change else { continue }
      var ids: [PaymentTransaction.ID] = []
      try statements.selectAccountTransactionIDs.bind(account, at: 1)
      try statements.selectAccountTransactionIDs.forEachRow { row in ids.append(PaymentTransaction.ID(UInt64(bitPattern: row.int64(at: 0)))) }
      cleared[account] = ids
    }
    let before = connection.totalChanges
    var chains = ChainNotes()
    for change in encoded {
      if case .transaction = change {} else { try chains.flush(with: statements) }
      try apply(change, with: statements, commit: current + 1, chains: &chains)
    }
    try chains.flush(with: statements)
    guard connection.totalChanges != before else { return nil }
    try statements.bumpChangeCounter.forEachRow { _ in }
    let position = current + 1
    let entries = CommitLog.entries(for: changes) { cleared[$0] ?? [] }
    try statements.insertCommit.bind(position, at: 1)
    try statements.insertCommit.bind(CommitLog.encode(entries), at: 2)
    try statements.insertCommit.run()
    if position % (options.commitLogKept / 16) == 0 {
      let floor = position - options.commitLogKept
      try statements.trimCommitLog.bind(floor, at: 1)
      try statements.trimCommitLog.run()
      try statements.noteCommitLogFloor.bind(floor, at: 1)
      try statements.noteCommitLogFloor.run()
      // A connection that never reads the log forgets its own positions once they are trimmed.
      ownCommits = ownCommits.filter { $0 > floor }
    }
    return position
  }

  func apply(
    _ change: EncodedChange, with statements: Statements, commit counter: Int64, chains: inout ChainNotes
  ) throws(SQLiteFailure) {
    switch change {
    case .transaction(let transaction, let row, let text, let lastModified):
      let statement = statements.upsertTransaction
      try statement.bind(Int64(bitPattern: transaction.id.rawValue), at: 1)
      try statement.bind(transaction.account, at: 2)
      try statement.bind(transaction.productID.rawValue, at: 3)
      try statement.bind(Int64(transaction.state.rawValue), at: 4)
      try statement.bind(Int64(transaction.isFinished ? 1 : 0), at: 5)
      try statement.bind(Int64(bitPattern: transaction.originalID.rawValue), at: 6)
      try statement.bind(transaction.purchaseDate.timeIntervalSince1970, at: 7)
      if let text { try statement.bind(text, at: 8) } else { try statement.bind(row, at: 8) }
      try statement.bind(transaction.productKind.rawValue, at: 9)
      try statement.bind(Int64(transaction.expiresDate == nil ? 0 : 1), at: 10)
      try statement.bind(counter, at: 11)
      try statement.bind(lastModified, at: 12)
      try statement.bind(LedgerSchema.idKey(transaction.id), at: 13)
      try statement.bind(Int64(transaction.quantity), at: 14)
      try statement.bind(Int64(transaction.revocationDate == nil ? 0 : 1), at: 15)
      if let revoked = RevocationKey(transaction) { try statement.bind(revoked.milliseconds, at: 16) } else { try statement.bindNull(at: 16) }
      let lastInsert = connection.lastInsertRowID
      try statement.run()
      guard transaction.productKind != .consumable else { return }
      try chains.add(
        ChainNotes.Note(
          original: Int64(bitPattern: transaction.originalID.rawValue), id: Int64(bitPattern: transaction.id.rawValue),
          current: transaction.state == .purchased && transaction.expiresDate != nil),
        inserted: connection.lastInsertRowID != lastInsert, with: statements)
    case .finish(let id):
      // No row changes when it is finished already (a replayed batch) or gone (another process
      // deleted it or cleared the history): a deleted transaction stays deleted. A finish of a row
      // this batch also puts never gets here (``StoreStep/compactedChanges`` makes it a put).
      try statements.finishTransaction.bind(Int64(bitPattern: id.rawValue), at: 1)
      try statements.finishTransaction.bind(counter, at: 2)
      try statements.finishTransaction.run()
    case .account(let name, let json):
      try statements.upsertAccount.bind(name, at: 1)
      try statements.upsertAccount.bind(json, at: 2)
      try statements.upsertAccount.run()
    case .clearHistory(let account):
      try statements.clearChains.bind(account, at: 1)
      try statements.clearChains.run()
      try statements.clearHistory.bind(account, at: 1)
      try statements.clearHistory.run()
      try statements.clearRequests.bind(account, at: 1)
      try statements.clearRequests.run()
    case .subscription(let id, let account, let json, let ended):
      try statements.upsertSubscription.bind(Int64(bitPattern: id.rawValue), at: 1)
      try statements.upsertSubscription.bind(account, at: 2)
      try statements.upsertSubscription.bind(json, at: 3)
      try statements.upsertSubscription.bind(counter, at: 4)
      try statements.upsertSubscription.run()
      try statements.markChainEnded.bind(Int64(bitPattern: id.rawValue), at: 1)
      try statements.markChainEnded.bind(Int64(ended ? 1 : 0), at: 2)
      try statements.markChainEnded.run()
    case .removeSubscription(let id):
      try statements.deleteSubscription.bind(Int64(bitPattern: id.rawValue), at: 1)
      try statements.deleteSubscription.run()
    case .request(let id, let account, let open, let json):
      try statements.upsertRequest.bind(Int64(bitPattern: id.rawValue), at: 1)
      try statements.upsertRequest.bind(account, at: 2)
      try statements.upsertRequest.bind(Int64(open ? 1 : 0), at: 3)
      try statements.upsertRequest.bind(json, at: 4)
      try statements.upsertRequest.bind(counter, at: 5)
      try statements.upsertRequest.run()
    case .deleteTransaction(let id):
      try statements.deleteTransaction.bind(Int64(bitPattern: id.rawValue), at: 1)
      try statements.deleteTransaction.run()
      try statements.repairChains.run()
      try statements.dropEmptyChains.run()
    case .massExtension(let product, let request, let json):
      try statements.upsertMassExtension.bind(product, at: 1)
      try statements.upsertMassExtension.bind(request, at: 2)
      try statements.upsertMassExtension.bind(json, at: 3)
      try statements.upsertMassExtension.run()
    case .notification(let original, let json, let due):
      let insert = statements.insertNotification
      if let original { try insert.bind(Int64(bitPattern: original.rawValue), at: 1) } else { try insert.bindNull(at: 1) }
      try insert.bind(json, at: 2)
      try insert.bind(due.timeIntervalSince1970, at: 3)
      try insert.run()
    case .value(let key, let value):
      try statements.upsertValue.bind(key, at: 1)
      try statements.upsertValue.bind(value, at: 2)
      try statements.upsertValue.run()
    case .header(let hash, let header):
      try statements.insertHeader.bind(hash, at: 1)
      try statements.insertHeader.bind(header, at: 2)
      try statements.insertHeader.run()
    }
  }
}
