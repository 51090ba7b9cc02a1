import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// The store's answers to a payment for a product the catalog lacks (B70) and to the app's refund
/// sheet (B10), at the engine's level.
final class RemovedProductAndRefundSheetTests: XCTestCase {
  typealias F = FixtureCatalog

  // B70: sold once, then removed from the catalog → storeProductNotAvailable; never sold → paymentInvalid.
  func testB70PaymentsForAProductTheCatalogLacks() throws {
    let ledger = InMemoryLedgerStore()
    let first = try TestStore(ledger: ledger)
    let bought = try first.buy(F.removeAds)
    XCTAssertEqual(bought.state, .purchased)

    let full = F.make()
    let reduced = Catalog(products: full.products.filter { $0.id != F.removeAds }, subscriptionGroups: full.subscriptionGroups)
    let relaunched = try TestStore(catalog: reduced, ledger: ledger)
    try relaunched.queue.launch()
    XCTAssertEqual(relaunched.queue.unfinishedTransactions.map(\.id), [bought.id], "its unfinished transaction comes again")
    XCTAssertTrue(try relaunched.queue.entitlements().owns(F.removeAds), "entitlements come from the history")
    XCTAssertEqual(try relaunched.buy(F.removeAds).error, .storeProductNotAvailable)
    XCTAssertEqual(try relaunched.buy("com.example.never.sold").error, .paymentInvalid)
  }

  // B10: only the app's sheet can fail; the tester's refund ignores the simulated error.
  func testB10RefundSheetResultsAndTheTestersRefund() throws {
    let store = try TestStore()
    let coins = try store.buy(F.coins)
    try store.queue.set(.failure(.refundRequest, SimulatedFailure(error: .refundRequestFailed)))
    let events = Locked<[StoreEvent]>([])
    let subscription = store.queue.bus.subscribe(StoreEvent.self) { event in events.withLock { $0.append(event) } }
    defer { _ = subscription }
    try store.queue.perform(.requestRefund(coins.id, answer: .approve, reason: 0))
    XCTAssertEqual(events.withLock { $0 }, [.refundRequestFinished(coins.id, .failed(.refundRequestFailed))])
    XCTAssertNil(try store.queue.transaction(coins.id)?.revocationDate, "a failed sheet refunds nothing")

    try store.queue.refund(coins.id)
    XCTAssertNotNil(try store.queue.transaction(coins.id)?.revocationDate, "the tester's refund is always granted")
    XCTAssertThrowsError(try store.queue.perform(.requestRefund(coins.id, answer: .approve, reason: 0))) {
      XCTAssertEqual($0 as? EngineError, .cannotRefund(coins.id, because: .alreadyRefunded))
    }
  }
}
