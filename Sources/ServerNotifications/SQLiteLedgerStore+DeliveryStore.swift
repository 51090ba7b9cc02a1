import Foundation
import SQLiteLedger
import StoreEngine

extension SQLiteLedgerStore: DeliveryStore {
  var ledgerName: String { path }

  func commitMarker() throws(LedgerError) -> Int64? { try dataVersion() }

  /// One machine's data directory: every serving process there may deliver (SQLite's locks order them).
  func takeDeliveryLease(environment: String) throws(LedgerError) -> Bool { true }

  var connectionNumber: Int { 1 }
}
