import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// `SKProductStorePromotionController`: the app's overrides of its promoted purchases, kept by the
/// open store and gone with a new session.
final class StoreKit1PromotionTests: StoreKitTestCase {
  private let controller = SKProductStorePromotionController.default()

  func testVisibilityIsDefaultUntilTheAppSetsIt() async throws {
    let product = try loadProduct(IDs.shopping)
    let before = try await controller.promotionVisibility(for: product)
    XCTAssertEqual(before, .default)
    try await controller.update(promotionVisibility: .hide, for: product)
    let after = try await controller.promotionVisibility(for: product)
    XCTAssertEqual(after, .hide)
    let other = try await controller.promotionVisibility(for: try loadProduct(IDs.coins100))
    XCTAssertEqual(other, .default)
  }

  func testCompletionHandlersRunOnTheMainQueueWithTheStoresAnswer() throws {
    let product = try loadProduct(IDs.monthly)
    let updated = expectation(description: "updated")
    controller.update(storePromotionVisibility: .show, for: product) { error in
      XCTAssertTrue(Thread.isMainThread)
      XCTAssertNil(error)
      updated.fulfill()
    }
    wait(for: [updated], timeout: 10)
    let fetched = expectation(description: "fetched")
    controller.fetchStorePromotionVisibility(for: product) { answer, error in
      XCTAssertTrue(Thread.isMainThread)
      XCTAssertNil(error)
      XCTAssertEqual(answer, .show)
      fetched.fulfill()
    }
    wait(for: [fetched], timeout: 10)
  }

  func testOrderIsKeptAsSetAndReturnedAsTheStoresProducts() async throws {
    let initial = try await controller.promotionOrder()
    XCTAssertTrue(initial.isEmpty)
    let yearly = try loadProduct(IDs.yearly)
    let shopping = try loadProduct(IDs.shopping)
    try await controller.update(promotionOrder: [yearly, shopping])
    let order = try await controller.promotionOrder()
    XCTAssertEqual(order.map(\.productIdentifier), [IDs.yearly, IDs.shopping])
    XCTAssertEqual(order.first?.localizedTitle, yearly.localizedTitle)
    let fetched = expectation(description: "order")
    controller.fetchStorePromotionOrder { products, error in
      XCTAssertNil(error)
      XCTAssertEqual(products.map(\.productIdentifier), [IDs.yearly, IDs.shopping])
      fetched.fulfill()
    }
    await fulfillment(of: [fetched], timeout: 10)
  }

  func testAProductTheStoreDoesNotSellIsRefusedAndChangesNothing() async throws {
    let stranger = ProductDouble(id: "no.such.product", price: 1)
    do {
      try await controller.update(promotionOrder: [try loadProduct(IDs.shopping), stranger])
      XCTFail("refused")
    } catch SKError.storeProductNotAvailable {
    }
    let order = try await controller.promotionOrder()
    XCTAssertTrue(order.isEmpty)
    let failed = expectation(description: "refused")
    controller.update(storePromotionVisibility: .hide, for: stranger) { error in
      XCTAssertEqual((error as? SKError)?.code, .storeProductNotAvailable)
      failed.fulfill()
    }
    await fulfillment(of: [failed], timeout: 10)
  }

  func testANewSessionStartsWithNoOverrides() async throws {
    let product = try loadProduct(IDs.shopping)
    try await controller.update(promotionVisibility: .hide, for: product)
    try await controller.update(promotionOrder: [product])
    session = try SKTestSession(contentsOf: Self.catalogURL)
    let visibility = try await controller.promotionVisibility(for: product)
    XCTAssertEqual(visibility, .default)
    let order = try await controller.promotionOrder()
    XCTAssertTrue(order.isEmpty)
  }
}
