import Foundation
import StoreEngine
import XCTest

@testable import SQLiteLedger

/// `claimPurchase`: the compare-and-set by which one launching process takes over an abandoned
/// `purchasing` transaction, and a second one (on another connection) then cannot.
final class PurchaseClaimTests: XCTestCase {
  private func purchasing(_ id: UInt64, owner: String?) -> PaymentTransaction {
    var transaction = LedgerFixtures.transaction(id)
    transaction.ownerSession = owner
    return transaction
  }

  func testClaimFromTheExpectedOwnerIsStoredAndASecondProcessLosesIt() throws {
    let directory = try TemporaryDirectory()
    let first = try SQLiteLedgerStore(directory: directory.url)
    let second = try SQLiteLedgerStore(directory: directory.url)
    try first.commit([.putTransaction(purchasing(1, owner: "dead"))])
    // Both loaded the transaction owned by "dead"; the first claim wins.
    let claimed = try XCTUnwrap(try first.claimPurchase(.init(1), from: "dead", for: "B"))
    XCTAssertEqual(claimed.ownerSession, "B")
    XCTAssertNil(try second.claimPurchase(.init(1), from: "dead", for: "C"))
    let stored = try XCTUnwrap(try second.allTransactions().first)
    XCTAssertEqual(stored, claimed)
    XCTAssertEqual(stored.ownerSession, "B")
    XCTAssertEqual(try first.integrityCheck(), "ok")
  }

  func testRowWrittenWithoutOwnerLoadsAsNoOwnerAndCanBeClaimed() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    try store.commit([.putTransaction(purchasing(2, owner: nil))])
    let json = try XCTUnwrap(try store.connection.texts("SELECT json FROM transactions").first)
    XCTAssertFalse(json.contains("ownerSession"), "no owner, no key: rows of older builds look the same")
    XCTAssertNil(try store.allTransactions().first?.ownerSession)
    XCTAssertNil(try store.claimPurchase(.init(2), from: "someone", for: "B"), "expected owner differs")
    XCTAssertEqual(try store.claimPurchase(.init(2), from: nil, for: "B")?.ownerSession, "B")
    let reopened = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(try reopened.allTransactions().first?.ownerSession, "B")
  }

  func testAnsweredFinishedOrMissingTransactionsAreNotClaimed() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    var answered = purchasing(3, owner: "dead")
    answered.state = .purchased
    var finished = purchasing(4, owner: "dead")
    finished.state = .failed
    finished.isFinished = true
    try store.commit([.putTransaction(answered), .putTransaction(finished)])
    let before = try store.load()
    XCTAssertNil(try store.claimPurchase(.init(3), from: "dead", for: "B"))
    XCTAssertNil(try store.claimPurchase(.init(4), from: "dead", for: "B"))
    XCTAssertNil(try store.claimPurchase(.init(99), from: "dead", for: "B"))
    XCTAssertEqual(try store.load(), before)
    // No claim leaves its write transaction open: another connection can still write.
    let other = try SQLiteLedgerStore(directory: directory.url, options: .init(busyTimeout: .milliseconds(50)))
    XCTAssertNoThrow(try other.commit([.setCurrentAccount("v")]))
  }

  func testReadOnlyStoreRefusesToClaim() throws {
    let directory = try TemporaryDirectory()
    try SQLiteLedgerStore(directory: directory.url).commit([.putTransaction(purchasing(5, owner: "dead"))])
    let readOnly = try SQLiteLedgerStore(directory: directory.url, options: .init(readOnly: true))
    XCTAssertThrowsError(try readOnly.claimPurchase(.init(5), from: "dead", for: "B")) {
      XCTAssertEqual($0 as? LedgerError, .readOnly(path: directory.ledgerPath))
    }
  }
}
