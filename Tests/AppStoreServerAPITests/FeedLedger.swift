import Foundation
import StoreEngine
import StorefrontTestSupport

/// A change feed over another ledger, as SQLite's works: every time the rows differ from what it
/// last saw, the position moves one on and the rows written since are reported; a deleted row only
/// moves the position. Found by comparing, so commits made straight to `base` (a `TestStore`'s) count.
final class FeedLedger: LedgerStore {
  let base: InMemoryLedgerStore
  private var seen: [PaymentTransaction.ID: PaymentTransaction] = [:]
  private var written: [(position: UInt64, row: PaymentTransaction)] = []
  private var position: UInt64 = 0
  /// How many full histories were read (the cache should read few).
  private(set) var historyReads = 0

  init(_ base: InMemoryLedgerStore) { self.base = base }

  private func look() throws(LedgerError) {
    let rows = try base.allTransactions()
    let now = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    let changed = rows.filter { seen[$0.id] != $0 }
    let deleted = seen.keys.contains { now[$0] == nil }
    guard !changed.isEmpty || deleted else { return }
    position += 1
    written += changed.map { (position, $0) }
    seen = now
  }

  func load() throws(LedgerError) -> LedgerSnapshot {
    try look()
    var snapshot = try base.load()
    snapshot.position = position
    return snapshot
  }

  func changes(since position: UInt64) throws(LedgerError) -> LedgerChanges {
    try look()
    return LedgerChanges(position: self.position, transactions: written.filter { $0.position > position }.map(\.row))
  }

  func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? {
    try base.massExtension(productID: productID, requestID: requestID)
  }
  func commit(_ changes: [LedgerChange]) throws(LedgerError) { try base.commit(changes) }
  func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 {
    try base.reserveTransactionIDs(count: count, atLeast: floor)
  }
  func history(account: String) throws(LedgerError) -> [PaymentTransaction] {
    historyReads += 1
    return try base.history(account: account)
  }
  func allTransactions() throws(LedgerError) -> [PaymentTransaction] { try base.allTransactions() }
  func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] { try base.transactions(ids) }
}
