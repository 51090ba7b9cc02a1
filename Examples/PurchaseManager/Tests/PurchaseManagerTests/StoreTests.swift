import PurchaseManager
import StoreKit
import StoreKitTest
import XCTest

final class StoreTests: XCTestCase, @unchecked Sendable {
  var session: SKTestSession!
  var store: Store!

  override func setUp() async throws {
    session = try SKTestSession(configurationFileNamed: "Products")
    session.disableDialogs = true
    session.timeRate = .monthlyRenewalEveryThirtySeconds
    let store = await Store()
    await store.start()
    try await store.loadProducts([shopping, coins, monthly])
    self.store = store
  }

  override func tearDown() async throws {
    await store.stop()
  }

  func testProductsInPriceOrderWithDisplayPrices() async {
    let products = await store.products
    XCTAssertEqual(products.map(\.id), [coins, shopping, monthly])
    XCTAssertEqual(products.map(\.displayPrice), ["$0.99", "$2.99", "$4.99"])
  }

  func testPurchaseEntitlesAndFinishes() async throws {
    let product = try await product(shopping)
    let transaction = try await store.purchase(product)
    XCTAssertEqual(transaction?.productID, shopping)
    let purchased = await store.purchasedProductIDs
    XCTAssertEqual(purchased, [shopping])
    var unfinished = 0
    for await _ in Transaction.unfinished { unfinished += 1 }
    XCTAssertEqual(unfinished, 0)
  }

  func testRenewalArrivesOnUpdates() async throws {
    let product = try await product(monthly)
    let first = try await store.purchase(product)
    var changes = store.changes.makeAsyncIterator()
    try session.advance(by: 31)
    let change = await changes.next()
    XCTAssertEqual(change, .entitlementsChanged([monthly]))
    let latest = await Transaction.latest(for: monthly)
    XCTAssertEqual(latest?.unsafePayloadValue.reason, .renewal)
    XCTAssertEqual(latest?.unsafePayloadValue.originalID, first?.id)
  }

  func testRefundArrivesOnUpdatesAndEndsTheEntitlement() async throws {
    let product = try await product(shopping)
    let bought = try await XCTUnwrapAsync(try await store.purchase(product))
    var changes = store.changes.makeAsyncIterator()
    try session.refundTransaction(identifier: UInt(bought.id))
    let change = await changes.next()
    XCTAssertEqual(change, .entitlementsChanged([]))
    let purchased = await store.purchasedProductIDs
    XCTAssertEqual(purchased, [])
  }

  func testAskToBuyApprovalArrivesOnUpdates() async throws {
    session.askToBuyEnabled = true
    let product = try await product(shopping)
    let result = try await store.purchase(product)
    XCTAssertNil(result, "pending")
    var changes = store.changes.makeAsyncIterator()
    let pending = try XCTUnwrap(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
    try session.approveAskToBuyTransaction(identifier: pending.identifier)
    let change = await changes.next()
    XCTAssertEqual(change, .entitlementsChanged([shopping]))
  }

  func testRestoreAfterClearingTheAppsState() async throws {
    try await session.buyProduct(identifier: shopping)
    try await store.restore()
    let purchased = await store.purchasedProductIDs
    XCTAssertEqual(purchased, [shopping])
  }

  func testSimulatedPurchaseError() async throws {
    try await session.setSimulatedError(.purchase(.productUnavailable), forAPI: .purchase)
    let product = try await product(coins)
    do {
      try await store.purchase(product)
      XCTFail("purchased")
    } catch let error as Product.PurchaseError {
      XCTAssertEqual(error, .productUnavailable)
    }
  }

  func XCTUnwrapAsync<T>(_ value: T?) async throws -> T { try XCTUnwrap(value) }

  func product(_ id: String) async throws -> Product {
    let products = await store.products
    return try XCTUnwrap(products.first { $0.id == id })
  }
}
