import SQLiteLedger
import StoreEngine
import StorefrontTestSupport
import XCTest

final class TransactionIDReservationTests: XCTestCase {
  func testTwoStoresOnOneFileNeverGetTheSameIDs() throws {
    let directory = try TemporaryDirectory()
    let first = try SQLiteLedgerStore(directory: directory.url)
    let second = try SQLiteLedgerStore(directory: directory.url)
    let a = try first.reserveTransactionIDs(count: 64, atLeast: 1_000)
    let b = try second.reserveTransactionIDs(count: 64, atLeast: 1_000)
    let c = try first.reserveTransactionIDs(count: 64, atLeast: 1_000)
    XCTAssertEqual(a, 1_000)
    XCTAssertEqual(b, 1_064)
    XCTAssertEqual(c, 1_128)
  }

  func testReservationStartsAfterTheLargestStoredID() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    try store.commit([.putTransaction(LedgerFixtures.transaction(5_000))])
    XCTAssertEqual(try store.reserveTransactionIDs(count: 10, atLeast: 1), 5_001)
    XCTAssertEqual(try InMemoryLedgerStore(LedgerSnapshot(transactions: try store.allTransactions())).reserveTransactionIDs(count: 10, atLeast: 1), 5_001)
  }

  func testTwoEnginesOnOneLedgerNeverCollide() throws {
    let directory = try TemporaryDirectory()
    func engine(_ account: String) throws -> PaymentQueue {
      let environment = StoreEnvironment(passwordHasher: InsecureTestHasher(), start: TestStore.start, firstTransactionID: 1)
      let queue = try PaymentQueue(
        catalog: FixtureCatalog.make(), ledger: try SQLiteLedgerStore(directory: directory.url), environment: environment)
      try queue.signIn(account)
      try queue.set(.dialogs(false))
      return queue
    }
    let one = try engine("one")
    let two = try engine("two")
    var ids: [PaymentTransaction.ID] = []
    for _ in 0..<100 {
      ids.append(try one.add(Payment(productID: FixtureCatalog.coins)))
      ids.append(try two.add(Payment(productID: FixtureCatalog.coins)))
    }
    XCTAssertEqual(Set(ids).count, 200)
    let stored = try SQLiteLedgerStore(directory: directory.url).allTransactions()
    XCTAssertEqual(stored.count, 200)
    XCTAssertEqual(Set(stored.map(\.id)).count, 200)
  }
}

final class SharedLedgerRestoreTests: XCTestCase {
  func testRestoreSeesPurchasesAnotherEngineMadeOnTheSameLedger() throws {
    let directory = try TemporaryDirectory()
    func engine() throws -> PaymentQueue {
      let environment = StoreEnvironment(passwordHasher: InsecureTestHasher(), start: TestStore.start, firstTransactionID: 1)
      let queue = try PaymentQueue(
        catalog: FixtureCatalog.make(), ledger: try SQLiteLedgerStore(directory: directory.url), environment: environment)
      try queue.signIn("shared")
      try queue.set(.dialogs(false))
      return queue
    }
    let first = try engine()
    let second = try engine()
    try second.add(Payment(productID: FixtureCatalog.removeAds))
    // Queries read the present, which the change feed brings up to date (a front end's tick);
    // restore reads the ledger, so it restores the purchase although this engine never had it in memory.
    XCTAssertNil(first.machine.transaction(PaymentTransaction.ID(1)))
    try first.refresh()
    XCTAssertTrue(try first.entitlements().owns(FixtureCatalog.removeAds))
    try first.restoreCompletedTransactions()
    let restored = try first.history().filter { $0.state == .restored }
    XCTAssertEqual(restored.map(\.productID), [FixtureCatalog.removeAds])
  }
}
