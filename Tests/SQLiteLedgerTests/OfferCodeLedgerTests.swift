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
  private func engine(_ ledger: any LedgerStore, account: String, dialogs: Bool = false) throws -> PaymentQueue {
    let environment = StoreEnvironment(passwordHasher: InsecureTestHasher(), start: TestStore.start, firstTransactionID: 1)
    let queue = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: ledger, environment: environment)
    try queue.signIn(account)
    try queue.set(.dialogs(dialogs))
    return queue
  }

  /// Issue 36: two processes redeem the last use of a code at the same instant. Both read the code
  /// unused and show their sheets; the first confirms and commits; the second, confirming with what
  /// it read, loses the ledger's compare-and-set, reads the code again and is refused: its purchase
  /// fails, nothing is charged, and neither the count nor its customer's use of the offer is written.
  private func checkRaceForTheLastUse(kind: OfferCode.Kind, _ open: () throws -> any LedgerStore) throws {
    let first = try engine(open(), account: "ann", dialogs: true)
    let offer = OfferCodeOffer(productID: FixtureCatalog.coins, offer: "last", price: Decimal(string: "0.49"))
    let code: String
    switch kind {
    case .custom:
      try first.perform(.offerCodes(.create("LAST", offer, limit: 1, expires: nil)))
      code = "LAST"
    case .oneTime:
      try first.perform(.offerCodes(.generate(offer, count: 1, expires: nil)))
      code = try XCTUnwrap(first.offerCodes.first?.code)
    }
    let second = try engine(open(), account: "bob", dialogs: true)
    try second.refresh()
    XCTAssertEqual(second.offerCodes.first?.redemptions, 0)
    // Both read the code unused and open their sheets (ann's process does not hear bob's sign-in).
    let won = try first.redeemOfferCode(code)
    let lost = try second.redeemOfferCode(code)
    XCTAssertNotNil(first.prompt)
    XCTAssertNotNil(second.prompt)
    try first.perform(.confirm)
    XCTAssertEqual(try first.transaction(won)?.state, .purchased)
    // The second confirms with the code as it read it: the ledger refuses its commit.
    XCTAssertEqual(second.offerCodes.first?.redemptions, 0, "the second process has not heard of the first's redemption")
    try second.perform(.confirm)
    let refused = try XCTUnwrap(try second.transaction(lost))
    XCTAssertEqual(refused.state, .failed)
    XCTAssertEqual(refused.error, .invalidOfferIdentifier)
    XCTAssertEqual(second.offerCodes.first?.redemptions, 1, "the second process took in the count it lost to")
    let relaunched = try engine(open(), account: "cat")
    XCTAssertEqual(relaunched.offerCodes.map { "\($0.code) \($0.redemptions)/\($0.limit)" }, ["\(code) 1/1"])
    XCTAssertEqual(try relaunched.history(account: "ann").filter { $0.state == .purchased }.map(\.id), [won])
    XCTAssertEqual(try relaunched.history(account: "bob").map(\.state), [.failed], "nothing charged to the loser")
    let uses = try open().load().deviceValues.filter { $0.key.hasPrefix("offer-code-use.") }
    XCTAssertEqual(uses.map { "\($0.key.hasSuffix("ann")) \($0.value)" }, ["true \(code)"], "only the winner's use of the offer")
    // Refused at the sheet as well, once the second process knows.
    try second.signIn("dan")
    XCTAssertThrowsError(try second.redeemOfferCode(code)) { error in
      XCTAssertEqual(
        error as? EngineError, .offerCodeRefused(code, because: kind == .custom ? .limitReached(1) : .alreadyRedeemed))
    }
  }

  func testTwoProcessesRacingForACodesLastUseOnSQLite() throws {
    let directory = try TemporaryDirectory()
    try checkRaceForTheLastUse(kind: .custom) { try SQLiteLedgerStore(directory: directory.url) }
    let other = try TemporaryDirectory()
    try checkRaceForTheLastUse(kind: .oneTime) { try SQLiteLedgerStore(directory: other.url) }
  }

  func testTwoHostsRacingForACodesLastUseOnPostgreSQL() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "coderace")
    try checkRaceForTheLastUse(kind: .custom) { try PostgreSQLLedgerStore(uri) }
    let other = try PostgreSQLTestDatabase.make(label: "coderace1")
    try checkRaceForTheLastUse(kind: .oneTime) { try PostgreSQLLedgerStore(other) }
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
