import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// `serve` answers a bundle's transactions with the bundle fields in the signed payload, under
/// Apple's JSON names (DECISIONS §47).
final class BundleTransactionInfoTests: XCTestCase {
  static let bundle = FixtureCatalog.bundle

  static func catalog() -> Catalog { FixtureCatalog.withBundle() }

  func payload(_ response: APIResponse) -> [String: Any] {
    TestStore.payload(of: json(response)["signedTransactionInfo"] as? String)
  }

  func testTransactionInfoCarriesTheBundleFieldsAndTheSwitch() throws {
    let store = try TestStore(catalog: Self.catalog(), environment: APIFixture.storeEnvironment(.sandbox))
    let api = AppStoreServerAPI(
      ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start })
    let standalone = try store.buy(FixtureCatalog.monthly)
    let purchase = try store.buy(Self.bundle)
    let component = try XCTUnwrap(try store.queue.history().first { $0.bundle?.transactionID == purchase.id })

    let get = { (id: PaymentTransaction.ID) in api.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(id)", query: [])) }
    let part = payload(get(component.id))
    XCTAssertEqual(part["productId"] as? String, FixtureCatalog.monthly.rawValue)
    XCTAssertEqual(part["bundleProductId"] as? String, Self.bundle.rawValue)
    XCTAssertEqual(part["bundleTransactionId"] as? String, purchase.id.description)
    XCTAssertEqual(part["bundleOriginalTransactionId"] as? String, purchase.originalID.description)
    XCTAssertEqual(part["bundleSubscriptionGroupIdentifier"] as? String, "BUNDLE01")
    XCTAssertEqual(part["previousOriginalTransactionId"] as? String, standalone.originalID.description)

    let own = payload(get(purchase.id))
    XCTAssertNil(own["bundleProductId"])
    XCTAssertEqual(own["previousOriginalTransactionId"] as? String, standalone.originalID.description)

    let revoked = payload(get(standalone.id))
    XCTAssertEqual(revoked["revocationReason"] as? Int, PaymentTransaction.upgradedToBundleRevocationReason)
    XCTAssertNil(revoked["bundleProductId"])
  }
}
