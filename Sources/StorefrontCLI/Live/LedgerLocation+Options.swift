import Foundation
import ServerNotifications
import StoreEngine
import StorefrontLive

/// What a command reads and writes through: the live ledger (``LiveLedger``), whichever it is.
typealias OpenLedger = LiveLedger

extension LedgerLocation {
  /// `--ledger`, else `$STOREFRONT_LEDGER`, else the data directory's SQLite file.
  static func resolve(_ global: GlobalOptions, environment: [String: String]) throws(LedgerError) -> LedgerLocation {
    try resolve(ledger: global.ledger, dataDirectory: global.dataDirectory(environment: environment), environment: environment)
  }

  /// Where serve's deliverer reads the outbox and hears of commits.
  var deliverySource: DeliverySource {
    switch self {
    case .sqlite(let directory): .sqlite(directory: directory)
    case .postgresql(let address): .postgresql(address)
    }
  }
}
