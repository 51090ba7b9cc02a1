import Foundation
import PostgreSQLLedger
import SQLiteLedger
import StoreEngine

/// The ledger a deliverer reads its outbox from, and how it hears of commits.
public enum DeliverySource: Sendable {
  /// `ledger.sqlite` in a data directory, watched with inotify.
  case sqlite(directory: URL)
  /// A shared PostgreSQL ledger, heard through `LISTEN`; one deliverer per environment sends.
  case postgresql(PostgreSQLAddress)

  /// The wake-up for this ledger.
  func makeWake() throws(DeliveryError) -> any DeliveryWake {
    switch self {
    case .sqlite(let directory): try DirectoryWatch(directory: directory)
    case .postgresql(let address): try ListenerWake(address: address)
    }
  }

  /// A new connection of the deliverer's own; a shared ledger's reconnects by itself (up to a
  /// minute per call) and tells `log` while its database is away.
  func open(log: @escaping @Sendable (NotificationDeliverer.Report) -> Void) throws(LedgerError) -> any DeliveryStore {
    switch self {
    case .sqlite(let directory):
      return try SQLiteLedgerStore(directory: directory)
    case .postgresql(let address):
      let name = address.description
      let options = PostgreSQLLedgerStore.Options(onConnectionChange: { state in
        switch state {
        case .connected: break
        case .reconnecting(let attempt, _, let lastError):
          log(.ledgerFailed("\(LedgerError.unreachable(server: name, reason: "\(lastError); reconnecting (attempt \(attempt))"))"))
        case .gaveUp(let attempts, let lastError):
          log(.ledgerFailed("\(LedgerError.unreachable(server: name, reason: "\(lastError); gave up after \(attempts) attempts, trying again at the next look"))"))
        }
      })
      return try PostgreSQLLedgerStore(address: address, options: options)
    }
  }
}
