import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontTestSupport
import XCTest

/// A bundle's transactions in the SQLite ledger (DECISIONS §47): a fresh launch and another process
/// on the same ledger see the bundle fields and the entitlements through the bundle.
final class SQLiteBundleLedgerTests: XCTestCase {
  static let bundle = FixtureCatalog.bundle

  static func catalog() -> Catalog { FixtureCatalog.withBundle() }

  func queue(_ directory: TemporaryDirectory) throws -> PaymentQueue {
    try PaymentQueue(catalog: Self.catalog(), ledger: try SQLiteLedgerStore(directory: directory.url), environment: TestStore.environment)
  }

  func testAFreshLaunchAndAnotherProcessSeeTheBundleAndItsEntitlements() throws {
    let directory = try TemporaryDirectory()
    let mine = try queue(directory)
    let other = try queue(directory)
    try mine.signIn("tester")
    try mine.set(.dialogs(false))
    let standalone = try XCTUnwrap(try mine.transaction(try mine.add(Payment(productID: FixtureCatalog.monthly))))
    _ = try mine.add(Payment(productID: Self.bundle))
    try mine.advance(by: 31 * 86_400)
    let before = try mine.history()
    XCTAssertEqual(before.filter { $0.bundle?.isComponent == true }.count, 2, "a component with the purchase and one with the renewal")

    let fresh = try queue(directory)
    XCTAssertEqual(try fresh.history().map(\.bundle), before.map(\.bundle))
    XCTAssertEqual(try fresh.entitlements().owning[FixtureCatalog.monthly]?.bundle?.productID, Self.bundle)
    XCTAssertEqual(try fresh.transaction(standalone.id)?.revocationReason, PaymentTransaction.upgradedToBundleRevocationReason)

    try other.refresh()
    XCTAssertEqual(try other.history().map(\.bundle), before.map(\.bundle))
    XCTAssertEqual(try other.entitlements(account: "tester").owning[FixtureCatalog.monthly]?.bundle?.productID, Self.bundle)
  }
}
