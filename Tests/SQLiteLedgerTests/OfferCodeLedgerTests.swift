import Foundation
import PostgreSQLLedger
import SQLiteLedger
import StoreEngine
import StorefrontTestSupport
import XCTest

/// B87–B88 across processes: codes and their redemption counts live in the ledger (SQLite,
/// PostgreSQL) and reach another process through the commit log, so a code used up by one process
/// is refused in another and a relaunch keeps the counts.
final class OfferCodeLedgerTests: XCTestCase {
  private func engine(_ ledger: any LedgerStore, account: String) throws -> PaymentQueue {
    let environment = StoreEnvironment(passwordHasher: InsecureTestHasher(), start: TestStore.start, firstTransactionID: 1)
    let queue = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: ledger, environment: environment)
    try queue.signIn(account)
    try queue.set(.dialogs(false))
    return queue
  }

  private func checkAcrossProcesses(_ open: () throws -> any LedgerStore) throws {
    let first = try engine(open(), account: "ann")
    let offer = OfferCodeOffer(productID: FixtureCatalog.coins, offer: "gift", price: Decimal(string: "0.49"))
    try first.perform(.offerCodes(.create("GIFT", offer, limit: 2, expires: nil)))
    let second = try engine(open(), account: "bob")
    try second.refresh()
    XCTAssertEqual(second.offerCodes.map(\.code), ["GIFT"], "the code reached the other process")
    try second.redeemOfferCode("gift")
    try first.refresh()
    XCTAssertEqual(first.offerCodes.first?.redemptions, 1, "the count reached the first process")
    // The signed-in account is the device's: bob's sign-in reached this process too.
    try first.signIn("ann")
    try first.redeemOfferCode("GIFT")
    try second.refresh()
    XCTAssertEqual(second.offerCodes.first?.redemptions, 2)
    try second.signIn("cat")
    XCTAssertThrowsError(try second.redeemOfferCode("GIFT")) { error in
      XCTAssertEqual(error as? EngineError, .offerCodeRefused("GIFT", because: .limitReached(2)))
    }
    // Bob redeemed the offer once: another code of it is his second.
    try second.perform(.offerCodes(.create("GIFT2", offer, limit: 5, expires: nil)))
    try second.signIn("bob")
    XCTAssertThrowsError(try second.redeemOfferCode("GIFT2")) { error in
      XCTAssertEqual(error as? EngineError, .offerCodeRefused("GIFT2", because: .redeemedByCustomer(account: "bob", code: "GIFT")))
    }
    let relaunched = try engine(open(), account: "ann")
    XCTAssertEqual(relaunched.offerCodes.map { "\($0.code) \($0.redemptions)/\($0.limit)" }, ["GIFT 2/2", "GIFT2 0/5"])
  }

  func testCodesTravelTheSQLiteCommitLog() throws {
    let directory = try TemporaryDirectory()
    try checkAcrossProcesses { try SQLiteLedgerStore(directory: directory.url) }
  }

  func testCodesTravelThePostgreSQLCommitLog() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "codes")
    try checkAcrossProcesses { try PostgreSQLLedgerStore(uri) }
  }
}
