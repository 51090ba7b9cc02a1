import Foundation

/// Durable storage for the engine's state: transactions, sandbox accounts and settings.
///
/// > Important: ``commit(_:)`` must be atomic and durable when it returns: the engine tells observers
/// > about a change only after its commit succeeded. Applying the same change twice does nothing.
public protocol LedgerStore: AnyObject {
  /// Everything stored, for start-up and relaunch.
  func load() throws(LedgerError) -> LedgerSnapshot
  /// Applies `changes` as one atomic unit.
  func commit(_ changes: [LedgerChange]) throws(LedgerError)
  /// Reserves a transaction id, at least `candidate`, that no store sharing this ledger has handed
  /// out; the engine asks before creating each transaction.
  ///
  /// Several processes may share one ledger file, each counting ids from what it loaded; without a
  /// reservation two of them hand out the same id and one purchase overwrites the other.
  func reserveTransactionID(atLeast candidate: UInt64) throws(LedgerError) -> UInt64
}

extension LedgerStore {
  /// A store only one engine uses (in memory) needs no reservation: `candidate` is free.
  public func reserveTransactionID(atLeast candidate: UInt64) throws(LedgerError) -> UInt64 { candidate }
}

/// One change to the ledger. Upserts are keyed by id, so replaying a change is harmless.
public enum LedgerChange: Sendable, Equatable {
  case putTransaction(PaymentTransaction)
  case putAccount(SandboxAccount)
  /// Removes every transaction of the account ("clear purchase history").
  case clearHistory(account: String)
  /// Stores a small engine value (current account, sandbox control) under `key`.
  case putValue(key: String, value: String)
}

/// What a ledger holds.
public struct LedgerSnapshot: Sendable, Equatable {
  public var transactions: [PaymentTransaction]
  public var accounts: [SandboxAccount]
  public var values: [String: String]

  public init(transactions: [PaymentTransaction] = [], accounts: [SandboxAccount] = [], values: [String: String] = [:]) {
    self.transactions = transactions
    self.accounts = accounts
    self.values = values
  }
}

/// Why the ledger could not be read or written. Every case names the file it concerns.
public enum LedgerError: Error, Sendable, Equatable {
  case cannotOpen(path: String, reason: String)
  case corrupt(path: String, reason: String)
  case newerSchema(path: String, found: Int, supported: Int)
  case busy(path: String)
  case writeFailed(path: String, reason: String)
  case readOnly(path: String)
}

extension LedgerError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "Cannot open the ledger '\(path)': \(reason). Check the data directory's permissions or pass --data-dir."
    case .corrupt(let path, let reason):
      "The ledger '\(path)' is damaged (\(reason)). Move it aside to start a fresh one; nothing was written."
    case .newerSchema(let path, let found, let supported):
      "The ledger '\(path)' has schema version \(found), newer than this storefront supports (\(supported)). Upgrade storefront or use another --data-dir."
    case .busy(let path):
      "The ledger '\(path)' is locked by another process for too long. Close the other storefront and try again."
    case .writeFailed(let path, let reason):
      "Could not write the ledger '\(path)': \(reason). Nothing was changed."
    case .readOnly(let path):
      "The ledger '\(path)' is read-only. Make the data directory writable or pass --data-dir."
    }
  }
}

/// A ledger in memory, for tests and benchmarks. Same semantics as the SQLite one, no durability.
public final class InMemoryLedgerStore: LedgerStore {
  private var snapshot = LedgerSnapshot()
  private var order: [PaymentTransaction.ID] = []
  private var byID: [PaymentTransaction.ID: PaymentTransaction] = [:]
  /// How many commits were made (tests assert write-before-notify with it).
  public private(set) var commitCount = 0
  /// Makes the next commit fail, to test that a failed write changes nothing.
  public var failNextCommit: LedgerError?

  public init(_ snapshot: LedgerSnapshot = LedgerSnapshot()) {
    self.snapshot = snapshot
    for transaction in snapshot.transactions { put(transaction) }
  }

  public func load() throws(LedgerError) -> LedgerSnapshot {
    var result = snapshot
    result.transactions = order.compactMap { byID[$0] }
    return result
  }

  public func commit(_ changes: [LedgerChange]) throws(LedgerError) {
    if let failure = failNextCommit {
      failNextCommit = nil
      throw failure
    }
    commitCount += 1
    for change in changes {
      switch change {
      case .putTransaction(let transaction): put(transaction)
      case .putAccount(let account):
        snapshot.accounts.removeAll { $0.name == account.name }
        snapshot.accounts.append(account)
      case .clearHistory(let account):
        order.removeAll { byID[$0]?.account == account }
        byID = byID.filter { $0.value.account != account }
      case .putValue(let key, let value): snapshot.values[key] = value
      }
    }
  }

  private func put(_ transaction: PaymentTransaction) {
    if byID[transaction.id] == nil { order.append(transaction.id) }
    byID[transaction.id] = transaction
  }
}
