import Foundation
import StoreEngine

/// The outbox as the deliverer uses it, on a connection of its own: what the SQLite and the
/// PostgreSQL ledgers both offer, so one deliverer serves either.
protocol DeliveryStore: AnyObject {
  /// The ledger as messages name it (a path, or `postgresql://user@host:port/db`).
  var ledgerName: String { get }
  /// A value that changes only when another connection commits, so a follow-up look can skip an
  /// unchanged ledger; nil when the ledger has none (every look reads).
  func commitMarker() throws(LedgerError) -> Int64?
  /// Whether this connection may deliver `environment`'s notifications: true once it holds the
  /// environment's lease (a shared ledger has one deliverer per environment), always on a local one.
  func takeDeliveryLease(environment: String) throws(LedgerError) -> Bool
  /// Changes when the store replaced a lost connection by itself (a lease taken before is gone).
  var connectionNumber: Int { get }
  func notificationURL(environment: String) throws(LedgerError) -> String?
  func virtualClock() throws(LedgerError) -> Date?
  func dueNotifications(at now: Date, environment: String, limit: Int) throws(LedgerError) -> [OutboxEntry]
  func recordDeliveries(of entries: [OutboxEntry]) throws(LedgerError)
  func notificationNamespace(proposing proposed: UInt128) throws(LedgerError) -> UInt128
  func close()
}
