import Foundation
import StoreKit
import StoreKitTest
import XCTest
import os

/// Apple's sample StoreKit 2 store, in its shape: an `ObservableObject` with `@Published` products
/// and purchases, a `Logger`, and an `OSAllocatedUnfairLock` — code that on Apple's platforms needs
/// only `import StoreKit` (and `import os`), unchanged here.
@MainActor
final class SampleStore: ObservableObject {
  @Published private(set) var products: [Product] = []
  @Published private(set) var purchased: [String] = []
  private let logger = Logger(subsystem: "com.example.store", category: "Store")
  private let attempts = OSAllocatedUnfairLock(initialState: 0)

  func load(_ ids: [String]) async throws {
    attempts.withLock { $0 += 1 }
    products = try await Product.products(for: ids).sorted { $0.price < $1.price }
    logger.info("loaded \(self.products.count, privacy: .public) products")
  }

  func buy(_ product: Product) async throws {
    guard case .success(let result) = try await product.purchase(), case .verified(let transaction) = result else { return }
    purchased.append(transaction.productID)
    await transaction.finish()
  }

  var loads: Int { attempts.withLock { $0 } }
}

final class ApplePlatformModulesTests: StoreKitTestCase {
  @MainActor
  func testSampleStoreAnnouncesItsChangesThroughPublishedAndObjectWillChange() async throws {
    let store = SampleStore()
    var changes = 0
    var seen: [[String]] = []
    let willChange = store.objectWillChange.sink { changes += 1 }
    let purchases = store.$purchased.sink { seen.append($0) }
    try await store.load([IDs.shopping, IDs.coins100])
    XCTAssertEqual(store.products.map(\.id).sorted(), [IDs.coins100, IDs.shopping].sorted())
    XCTAssertEqual(changes, 1, "objectWillChange before the products changed")
    try await store.buy(try XCTUnwrap(store.products.first { $0.id == IDs.shopping }))
    XCTAssertEqual(store.purchased, [IDs.shopping])
    XCTAssertEqual(changes, 2)
    XCTAssertEqual(seen, [[], [IDs.shopping]], "the current value at subscription, then each new one")
    XCTAssertEqual(store.loads, 1)
    willChange.cancel()
    try await store.buy(try XCTUnwrap(store.products.first { $0.id == IDs.coins100 }))
    XCTAssertEqual(changes, 2, "a cancelled subscription hears nothing more")
    purchases.cancel()
  }

  func testStoreKitBringsURLSessionAsApplesFoundationDoes() {
    // FoundationNetworking comes with `import StoreKit`: a receipt validator's request compiles.
    var request = URLRequest(url: URL(string: "https://buy.itunes.apple.com/verifyReceipt")!)
    request.httpMethod = "POST"
    XCTAssertEqual(request.httpMethod, "POST")
    XCTAssertNotNil(URLSession.shared as URLSession?)
  }
}
