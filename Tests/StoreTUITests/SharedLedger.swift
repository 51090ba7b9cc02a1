import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontTestSupport

/// One SQLite ledger file that several payment queues open, each as its own process would: its
/// own connection and its own session.
struct SharedLedger {
  let file: URL

  init(directory: URL) throws {
    file = directory.appendingPathComponent("ledger.sqlite")
  }

  /// A new connection to the file.
  func open() throws -> SQLiteLedgerStore { try SQLiteLedgerStore(fileURL: file) }

  /// A payment queue on its own connection, signed in, dialogs off.
  func store(session: String, account: String? = "tester") throws -> SharedLedgerStore {
    try SharedLedgerStore(ledger: open(), session: session, account: account)
  }

  /// The environment of a process with session `id`; every session counts as alive.
  /// The clock starts at a wall-clock-like moment, with a fraction of a second the ledger's date
  /// encoding may not keep exactly.
  static func environment(session id: String) -> StoreEnvironment {
    var environment = TestStore.environment
    environment.start = TestStore.start.addingTimeInterval(0.123_456_789)
    environment.session = AppSession(id: id, isAlive: { _ in true })
    return environment
  }
}

/// ``TestStore``'s shape on a shared SQLite ledger.
final class SharedLedgerStore {
  let ledger: SQLiteLedgerStore
  let queue: PaymentQueue

  init(ledger: SQLiteLedgerStore, session: String, account: String?) throws {
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
