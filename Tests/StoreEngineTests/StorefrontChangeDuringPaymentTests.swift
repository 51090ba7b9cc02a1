import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

private typealias F = FixtureCatalog

/// `SKPaymentQueueDelegate.paymentQueue(_:shouldContinue:in:)` answered false: the engine fails the
/// payment in progress with `storeProductNotAvailable` and moves on to the next sheet.
final class StorefrontChangeDuringPaymentTests: XCTestCase {
  func testADiscontinuedPaymentFailsAndItsSheetCloses() throws {
    let store = try TestStore(dialogs: true)
    let first = try store.queue.add(Payment(productID: F.coins))
    let second = try store.queue.add(Payment(productID: F.removeAds))
    XCTAssertEqual(store.queue.prompt?.transactionID, first)
    try store.queue.perform(.setControl(.storefront("GBR")))
    let step = try store.queue.perform(.discontinueAfterStorefrontChange(first))
    XCTAssertTrue(step.events.contains(.promptDismissed))
    let failed = try XCTUnwrap(try store.queue.transaction(first))
    XCTAssertEqual(failed.state, .failed)
    XCTAssertEqual(failed.error, .storeProductNotAvailable)
    XCTAssertEqual(store.queue.prompt?.transactionID, second, "the next payment's sheet shows")
  }

  func testAPaymentThatCompletedMeanwhileIsLeftAsItIs() throws {
    let store = try TestStore(dialogs: true)
    let id = try store.queue.add(Payment(productID: F.coins))
    try store.queue.confirm()
    let step = try store.queue.perform(.discontinueAfterStorefrontChange(id))
    XCTAssertTrue(step.events.isEmpty)
    XCTAssertEqual(try store.queue.transaction(id)?.state, .purchased)
  }

  func testAWaitingPaymentLeavesTheQueueOfSheets() throws {
    let store = try TestStore(dialogs: true)
    let first = try store.queue.add(Payment(productID: F.coins))
    let second = try store.queue.add(Payment(productID: F.removeAds))
    try store.queue.perform(.discontinueAfterStorefrontChange(second))
    XCTAssertEqual(try store.queue.transaction(second)?.state, .failed)
    XCTAssertEqual(store.queue.prompt?.transactionID, first)
    try store.queue.confirm()
    XCTAssertNil(store.queue.prompt, "no sheet for the discontinued payment")
  }
}
