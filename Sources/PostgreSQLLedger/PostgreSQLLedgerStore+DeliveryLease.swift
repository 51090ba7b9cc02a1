import Foundation
import StoreEngine

extension PostgreSQLLedgerStore {
  /// Takes the delivery lease of `environment` on this store's connection if no other client holds
  /// it: a session-level advisory lock, so exactly one deliverer per environment sends at a time and
  /// the lease goes with its connection (SIGKILL, crash) to the next deliverer that asks.
  ///
  /// Call it until it returns true, then not again: session advisory locks count, and this one is
  /// meant to be held once for the connection's life.
  public func takeDeliveryLease(environment: String) throws(LedgerError) -> Bool {
    try run { connection throws(PostgreSQLFailure) in
      try connection.execute("SELECT pg_try_advisory_lock($1)", [.int(Self.deliveryLeaseKey(environment))]).text(0, 0) == "t"
    }
  }

  /// The advisory lock key of an environment's delivery lease: 64-bit FNV-1a, as session keys.
  static func deliveryLeaseKey(_ environment: String) -> Int64 {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "storefront-deliverer:\(environment)".utf8 {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
    return Int64(bitPattern: value)
  }
}
