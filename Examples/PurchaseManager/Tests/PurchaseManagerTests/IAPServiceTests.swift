import PurchaseManager
import StoreKit
import StoreKitTest
import XCTest

let shopping = "com.jake.sample.ExInAppPurchase.shopping"
let coins = "com.jake.sample.ExInAppPurchase.coins100"
let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"

// XCTest on Linux cannot run a @MainActor test class; each test runs its body on the main actor
// (XCTest calls tests on the main thread) with `onMain`.
final class IAPServiceTests: XCTestCase, @unchecked Sendable {
  var session: SKTestSession!
  var service: IAPService!
  var defaults: UserDefaults!

  override func setUpWithError() throws {
    session = try SKTestSession(configurationFileNamed: "Products")
    session.disableDialogs = true
    session.clearTransactions()
    service = onMain {
      defaults = UserDefaults(suiteName: "IAPServiceTests-\(UUID().uuidString)")
      return IAPService(productIDs: [shopping, coins], defaults: defaults ?? .standard)
    }
  }

  override func tearDown() {
    onMain { service.stop() }
  }

  func testProductsAreLocalizedWithDecimalPrices() throws { try onMain {
    let products = try loadProducts()
    XCTAssertEqual(Set(products.map(\.productIdentifier)), [shopping, coins])
    let removeAds = try XCTUnwrap(products.first { $0.productIdentifier == shopping })
    XCTAssertEqual(removeAds.localizedTitle, "Remove Ads")
    XCTAssertEqual(removeAds.price, NSDecimalNumber(string: "2.99"))
    XCTAssertEqual(removeAds.priceLocale.currency?.identifier, "USD")
  } }

  func testBuyingPostsTheNotificationAndRemembersThePurchase() throws { try onMain {
    let product = try XCTUnwrap(try loadProducts().first { $0.productIdentifier == shopping })
    let posted = expectation(forNotification: .iapServicePurchaseNotification, object: nil) { note in
      note.object as? String == shopping
    }
    service.buyProduct(product)
    wait(for: [posted], timeout: 5)
    XCTAssertTrue(service.isProductPurchased(shopping))
    XCTAssertTrue(defaults.bool(forKey: shopping))
    XCTAssertEqual(SKPaymentQueue.default().transactions.count, 0, "the service finished it")
  } }

  func testRestoreBringsBackAPurchaseMadeElsewhere() throws { try onMain {
    try session.buyProduct(productIdentifier: shopping)
    let posted = expectation(forNotification: .iapServicePurchaseNotification, object: nil) { note in
      note.object as? String == shopping
    }
    // The purchase made outside the app is delivered at once; the restore delivers it again.
    service.restorePurchases()
    wait(for: [posted], timeout: 5)
    XCTAssertTrue(service.isProductPurchased(shopping))
  } }

  func testFailureKeepsTheChosenErrorCode() throws { try onMain {
    session.failureError = .paymentNotAllowed
    session.failTransactionsEnabled = true
    let product = try XCTUnwrap(try loadProducts().first { $0.productIdentifier == coins })
    service.buyProduct(product)
    let failed = expectation(description: "failed")
    waitForMainQueue(until: { self.service.lastError != nil }, then: failed)
    wait(for: [failed], timeout: 5)
    XCTAssertEqual((service.lastError as? SKError)?.code, .paymentNotAllowed)
    XCTAssertFalse(service.isProductPurchased(coins))
  } }

  // MARK: Helpers

  @MainActor
  func loadProducts() throws -> [SKProduct] {
    let loaded = expectation(description: "products")
    var found: [SKProduct] = []
    service.getProducts { success, products in
      XCTAssertTrue(success)
      found = products ?? []
      loaded.fulfill()
    }
    wait(for: [loaded], timeout: 5)
    return found
  }

  /// Fulfills `expectation` once `condition` holds, checked after each main-queue turn.
  @MainActor
  func waitForMainQueue(until condition: @escaping @MainActor () -> Bool, then expectation: XCTestExpectation) {
    func check(_ left: Int) {
      if condition() || left == 0 { return expectation.fulfill() }
      DispatchQueue.main.async { MainActor.assumeIsolated { check(left - 1) } }
    }
    check(100)
  }
}

extension XCTestCase {
  /// Runs `body` on the main actor: XCTest calls tests on the main thread, where StoreKit's callbacks run.
  func onMain<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
    try MainActor.assumeIsolated(body)
  }
}
