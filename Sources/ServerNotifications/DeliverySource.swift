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

  /// A new connection of the deliverer's own.
  func open() throws(LedgerError) -> any DeliveryStore {
    switch self {
    case .sqlite(let directory): try SQLiteLedgerStore(directory: directory)
    case .postgresql(let address): try PostgreSQLLedgerStore(address: address)
    }
  }
}
