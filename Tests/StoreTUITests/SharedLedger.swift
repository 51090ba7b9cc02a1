import Foundation
import PostgreSQLLedger
import SQLiteLedger
import StoreEngine
import StorefrontProcessTestSupport
import StorefrontTestSupport

/// One ledger that several payment queues open, each as its own process (or host) would: its own
/// connection and its own session. SQLite: one file; PostgreSQL: one database of the test server.
struct SharedLedger {
  /// A new connection to the ledger.
  let open: () throws -> any LedgerStore

  /// A SQLite ledger file in `directory`.
  init(directory: URL) throws {
    let file = directory.appendingPathComponent("ledger.sqlite")
    open = { try SQLiteLedgerStore(fileURL: file) }
  }

  /// A fresh database on the tests' PostgreSQL server (`$STOREFRONT_TEST_POSTGRES`, else a cluster
  /// of this test process's own).
  static func postgreSQL(label: String) throws -> SharedLedger {
    let uri = try PostgreSQLTestServer.shared().makeDatabase(label: label)
    return SharedLedger(open: { try PostgreSQLLedgerStore(uri) })
  }

  private init(open: @escaping () throws -> any LedgerStore) {
    self.open = open
  }

  /// A payment queue on its own connection, signed in, dialogs off.
  func store(session: String, account: String? = "tester") throws -> SharedLedgerStore {
    try SharedLedgerStore(ledger: open(), session: session, account: account)
  }

  /// The environment of a process with session `id`; every session counts as alive. The clock
  /// starts at a wall-clock-like moment, with a fraction of a second the ledger's date encoding
  /// must keep exactly.
  static func environment(session id: String) -> StoreEnvironment {
    var environment = TestStore.environment
    environment.start = TestStore.start.addingTimeInterval(0.123_456_789)
    environment.session = AppSession(id: id, isAlive: { _ in true })
    return environment
  }
}

/// ``TestStore``'s shape on a shared ledger.
final class SharedLedgerStore {
  let ledger: any LedgerStore
  let queue: PaymentQueue

  init(ledger: any LedgerStore, session: String, account: String?) throws {
    self.ledger = ledger
    queue = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: ledger, environment: SharedLedger.environment(session: session))
    if let account, queue.currentAccount != account { try queue.signIn(account) }
    if queue.controls.dialogsEnabled { try queue.set(.dialogs(false)) }
  }

  @discardableResult
  func buy(_ product: Product.ID, quantity: Int = 1) throws -> PaymentTransaction.ID {
    try queue.add(Payment(productID: product, quantity: quantity))
  }
}
