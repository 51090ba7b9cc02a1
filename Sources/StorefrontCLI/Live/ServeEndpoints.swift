import AppStoreServerAPI
import Foundation
import SQLiteLedger
import StoreEngine
import StoreServer

/// The endpoints `storefront serve` answers with: the one place the App Store Server API module is wired in.
enum ServeEndpoints {
  /// - Parameters:
  ///   - ledger: The data directory's shared ledger (its own connection), read afresh by every request.
  ///   - environment: `Sandbox` or `Production`, the store the answers come from.
  ///
  /// The server runs a thread per connection and a ledger connection is not shared between threads,
  /// so requests take turns at the API; a ledger locked by a writer delays the answer (SQLite's busy
  /// timeout), and one locked for longer answers Apple's retryable 5000001.
  static func make(ledger: SQLiteLedgerStore, environment: String, bundleID: String) -> APIGateway.Endpoints {
    let api = AppStoreServerAPI(
      ledger: ledger, environment: environment == "Production" ? .production : .sandbox, bundleID: bundleID,
      now: { Date() }, changeFeed: true)
    // The lock owns the API: the only way to it is a turn.
    let turn = Locked(api)
    return { request in turn.withLock { $0.handle(request) } }
  }
}
