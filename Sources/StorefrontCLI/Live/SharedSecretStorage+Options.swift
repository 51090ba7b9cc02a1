import Foundation
import PostgreSQLLedger
import SandboxSigning
import SharedLedgerSecrets
import StorefrontLive

extension SharedSecretStorage {
  /// The key-encryption key `--key-file` or the environment names.
  static func sealer(_ global: GlobalOptions, environment: [String: String], ledger: String) throws(Failure) -> SecretSealer {
    try sealer(keyFile: global.keyFile, environment: environment, ledger: ledger)
  }

  /// The CA storage of the ledger `global` and `environment` select: nil for a data directory's own
  /// SQLite ledger (the CA stays in its `ca/` files), the shared table for a PostgreSQL ledger.
  static func resolve(_ global: GlobalOptions, environment: [String: String]) throws -> SharedSecretStorage? {
    guard case .postgresql(let address) = try LedgerLocation.resolve(global, environment: environment) else { return nil }
    let sealer = try sealer(global, environment: environment, ledger: address.description)
    return SharedSecretStorage(table: try PostgreSQLSecretTable(address: address), sealer: sealer)
  }
}
