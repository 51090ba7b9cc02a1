import Foundation
import PostgreSQLLedger
import StoreEngine

extension PostgreSQLLedgerStore: DeliveryStore {
  var ledgerName: String { name }

  /// None needed: a commit's `NOTIFY` arrives only once the commit is visible, so no follow-up looks.
  func commitMarker() throws(LedgerError) -> Int64? { nil }
}
