import Foundation
import StoreEngine

extension SQLiteLedgerStore {
  /// A change with its JSON already encoded.
  enum EncodedChange {
    case transaction(PaymentTransaction, json: String)
    case account(name: String, json: String)
    case clearHistory(account: String)
    case value(key: String, value: String)
  }

  /// The statements every commit and load uses, prepared once per connection.
  final class Statements {
    let begin: SQLiteStatement
    let beginRead: SQLiteStatement
    let commit: SQLiteStatement
    let rollback: SQLiteStatement
    let upsertTransaction: SQLiteStatement
    let upsertAccount: SQLiteStatement
    let clearHistory: SQLiteStatement
    let upsertValue: SQLiteStatement
    let selectTransactions: SQLiteStatement
    let selectAccounts: SQLiteStatement
    let selectValues: SQLiteStatement

    init(_ connection: SQLiteConnection) throws(SQLiteFailure) {
      begin = try connection.prepare("BEGIN IMMEDIATE", persistent: true)
      beginRead = try connection.prepare("BEGIN DEFERRED", persistent: true)
      commit = try connection.prepare("COMMIT", persistent: true)
      rollback = try connection.prepare("ROLLBACK", persistent: true)
      upsertTransaction = try connection.prepare(LedgerSchema.upsertTransaction, persistent: true)
      upsertAccount = try connection.prepare(LedgerSchema.upsertAccount, persistent: true)
      clearHistory = try connection.prepare(LedgerSchema.clearHistory, persistent: true)
      upsertValue = try connection.prepare(LedgerSchema.upsertValue, persistent: true)
      selectTransactions = try connection.prepare(LedgerSchema.selectTransactions, persistent: true)
      selectAccounts = try connection.prepare(LedgerSchema.selectAccounts, persistent: true)
      selectValues = try connection.prepare(LedgerSchema.selectValues, persistent: true)
    }
  }

  func encode(_ changes: [LedgerChange]) throws(LedgerError) -> [EncodedChange] {
    var encoded: [EncodedChange] = []
    encoded.reserveCapacity(changes.count)
    for change in changes {
      switch change {
      case .putTransaction(let transaction):
        do {
          encoded.append(.transaction(transaction, json: try coder.encode(transaction)))
        } catch {
          throw .writeFailed(
            path: path,
            reason: "transaction \(transaction.id) could not be encoded (\(error)); report this bug"
          )
        }
      case .putAccount(let account):
        do {
          encoded.append(.account(name: account.name, json: try coder.encode(account)))
        } catch {
          throw .writeFailed(
            path: path,
            reason: "account '\(account.name)' could not be encoded (\(error)); report this bug")
        }
      case .clearHistory(let account): encoded.append(.clearHistory(account: account))
      case .putValue(let key, let value): encoded.append(.value(key: key, value: value))
      }
    }
    return encoded
  }

  func apply(_ change: EncodedChange, with statements: Statements) throws(SQLiteFailure) {
    switch change {
    case .transaction(let transaction, let json):
      let statement = statements.upsertTransaction
      try statement.bind(Int64(bitPattern: transaction.id.rawValue), at: 1)
      try statement.bind(transaction.account, at: 2)
      try statement.bind(transaction.productID.rawValue, at: 3)
      try statement.bind(Int64(transaction.state.rawValue), at: 4)
      try statement.bind(Int64(transaction.isFinished ? 1 : 0), at: 5)
      try statement.bind(Int64(bitPattern: transaction.originalID.rawValue), at: 6)
      try statement.bind(transaction.purchaseDate.timeIntervalSince1970, at: 7)
      try statement.bind(json, at: 8)
      try statement.run()
    case .account(let name, let json):
      try statements.upsertAccount.bind(name, at: 1)
      try statements.upsertAccount.bind(json, at: 2)
      try statements.upsertAccount.run()
    case .clearHistory(let account):
      try statements.clearHistory.bind(account, at: 1)
      try statements.clearHistory.run()
    case .value(let key, let value):
      try statements.upsertValue.bind(key, at: 1)
      try statements.upsertValue.bind(value, at: 2)
      try statements.upsertValue.run()
    }
  }
}
