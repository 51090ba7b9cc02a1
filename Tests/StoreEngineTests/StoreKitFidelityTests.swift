import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

private typealias F = FixtureCatalog

/// Rows of `Docs/Fidelity.md` about purchases, restores and the test session; each
/// test names its row.
final class StoreKitFidelityTests: XCTestCase {
  func testB20RestoredTransactionKeepsThePriceAndIsDatedAtTheRestore() throws {
    let store = try TestStore()
    let bought = try store.buy(F.removeAds)
    try store.queue.finish(bought.id)
    try store.queue.advance(by: 86_400)
    try store.queue.restoreCompletedTransactions()
    let restored = try XCTUnwrap(store.queue.unfinishedTransactions.first { $0.state == .restored })
    XCTAssertEqual(restored.price, bought.price)
    XCTAssertGreaterThan(restored.price, 0)
    let payload = TestStore.payload(of: restored.signedTransaction)
    XCTAssertEqual(payload["price"] as? Int, Int(try SignedPayloads.milliunits(bought.price)))
    XCTAssertEqual(payload["purchaseDate"] as? Int, Int(store.queue.now.timeIntervalSince1970 * 1000))
    XCTAssertEqual(payload["originalTransactionId"] as? String, bought.id.description)
  }

  func testB23ReDownloadingAnOwnedNonConsumableCarriesTheExistingSignedTransaction() throws {
    let store = try TestStore()
    let bought = try store.buy(F.removeAds)
    try store.queue.finish(bought.id)
    let again = try store.buy(F.removeAds)
    XCTAssertEqual(again.state, .purchased, "StoreKit 1 still delivers purchased")
    XCTAssertEqual(again.originalID, bought.id)
    XCTAssertEqual(again.signedTransaction, bought.signedTransaction, "no transaction the App Store never makes")
    XCTAssertEqual(TestStore.payload(of: again.signedTransaction)["transactionId"] as? String, bought.id.description)
  }

  func testB57CancellingTheSignInPromptFailsWithUnknownNotPaymentCancelled() throws {
    let store = try TestStore(account: nil, dialogs: true)
    let id = try store.queue.add(Payment(productID: F.coins))
    XCTAssertEqual(store.queue.prompt, .signIn(purpose: .purchase(id)))
    try store.queue.cancel()
    let failed = try XCTUnwrap(try store.queue.transaction(id))
    XCTAssertEqual(failed.state, .failed)
    XCTAssertEqual(failed.error, .unknown)
    XCTAssertEqual(failed.error?.code, 0)
  }

  func testB62ChangingTheStorefrontTellsTheApp() throws {
    let store = try TestStore()
    let step = try store.queue.perform(.setControl(.storefront("KOR")))
    XCTAssertTrue(step.events.contains(.storefrontChanged("KOR")))
    let same = try store.queue.perform(.setControl(.storefront("KOR")))
    XCTAssertFalse(same.events.contains(.storefrontChanged("KOR")), "no change, no callback")
  }

  func testB71DeleteTransactionRemovesItAndItsEntitlement() throws {
    let store = try TestStore()
    let bought = try store.buy(F.removeAds)
    XCTAssertTrue(try store.queue.entitlements().owns(F.removeAds))
    let step = try store.queue.perform(.deleteTransaction(bought.id))
    XCTAssertTrue(step.events.contains { if case .transactionDeleted(let t) = $0 { t.id == bought.id } else { false } })
    XCTAssertFalse(try store.queue.entitlements().owns(F.removeAds))
    XCTAssertNil(try store.queue.transaction(bought.id))
    XCTAssertEqual(store.queue.unfinishedTransactions, [])
    XCTAssertThrowsError(try store.queue.perform(.deleteTransaction(bought.id))) {
      XCTAssertEqual($0 as? EngineError, .unknownTransaction(bought.id.description))
    }
  }

  func testB71ResetToDefaultStateClearsEveryHistoryAndTheControls() throws {
    let store = try TestStore()
    try store.buy(F.removeAds)
    try store.queue.signIn("other")
    try store.buy(F.coins)
    try store.queue.set(.askToBuy(true))
    try store.queue.perform(.resetToDefaultState)
    XCTAssertEqual(try store.ledger.allTransactions(), [])
    XCTAssertFalse(store.queue.controls.askToBuy)
    XCTAssertEqual(store.queue.controls, SandboxControls(settings: FixtureCatalog.make().settings))
  }

  func testInterruptedPurchaseResolvedIsAFirstPurchaseWithItsOwnOriginalDate() throws {
    let store = try TestStore()
    try store.queue.set(.interruptedPurchases(true))
    let failed = try store.buy(F.coins)
    try store.queue.set(.interruptedPurchases(false))
    try store.queue.advance(by: 3600)
    let resolved = try XCTUnwrap(try store.queue.transaction(try store.queue.resolve(failed.id)))
    XCTAssertEqual(resolved.originalPurchaseDate, resolved.purchaseDate)
    XCTAssertNotEqual(resolved.originalPurchaseDate, failed.purchaseDate)
  }

  func testRenewalsInsideOneAdvanceAreAnnouncedAtTheirOwnMoments() throws {
    let store = try TestStore()
    try store.queue.set(.timeRate(try XCTUnwrap(TimeRate.preset(named: "every-5m")).rawValue))
    let bought = try store.buy(F.monthly)
    let step = try store.queue.perform(.advance(to: store.queue.now.addingTimeInterval(3 * 300 + 10)))
    var moment: Date?
    var stamped: [(Date?, PaymentTransaction)] = []
    for event in step.events {
      if case .clockAdvanced(let date) = event { moment = date }
      if case .transactionsUpdated(let list) = event { stamped += list.map { (moment, $0) } }
    }
    XCTAssertFalse(stamped.isEmpty, "the advance renewed \(bought.productID)")
    for (time, renewal) in stamped { XCTAssertEqual(time, renewal.purchaseDate, "renewal \(renewal.id) announced at another moment") }
  }

  func testAccountsCannotBeSwitchedUnderAPurchaseSheet() throws {
    let store = try TestStore(account: "eve", dialogs: true)
    let id = try store.queue.add(Payment(productID: F.removeAds))
    XCTAssertThrowsError(try store.queue.signIn("mallory")) { XCTAssertEqual($0 as? EngineError, .sheetIsShowing(id)) }
    XCTAssertEqual(store.queue.currentAccount, "eve")
    try store.queue.confirm()
    XCTAssertEqual(try store.queue.transaction(id)?.account, "eve")
  }

  func testClearingHistoryRemovesTheQueuesUnfinishedTransactions() throws {
    let store = try TestStore()
    let bought = try store.buy(F.removeAds)
    store.observer.calls.removeAll()
    try store.queue.clearPurchaseHistory()
    XCTAssertEqual(store.observer.calls, ["removed \(bought.id)"])
    XCTAssertEqual(store.queue.unfinishedTransactions, [])
  }
}
