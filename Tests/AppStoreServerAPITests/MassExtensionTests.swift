import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Extend Subscription Renewal Dates for All Active Subscribers and its status endpoint.
final class MassExtensionTests: XCTestCase {
  private var store: TestStore!
  private var api: AppStoreServerAPI!

  override func setUpWithError() throws {
    let store = try TestStore(environment: APIFixture.storeEnvironment(.sandbox))
    self.store = store
    api = AppStoreServerAPI(
      ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start },
      perform: { command throws(EngineError) in
        try store.queue.refresh()
        return try store.queue.perform(command)
      })
  }

  private func massExtend(_ body: String) -> APIResponse {
    api.handle(APIRequest(method: "POST", path: "/inApps/v1/subscriptions/extend/mass", body: Data(body.utf8)))
  }

  private func body(product: String = FixtureCatalog.monthly.rawValue, days: Int = 7, request: String = "mass-1", storefronts: String? = nil) -> String {
    let codes = storefronts.map { #","storefrontCountryCodes":\#($0)"# } ?? ""
    return #"{"extendByDays":\#(days),"extendReasonCode":3,"requestIdentifier":"\#(request)","productId":"\#(product)"\#(codes)}"#
  }

  private func status(_ product: String = FixtureCatalog.monthly.rawValue, _ request: String = "mass-1") -> APIResponse {
    api.handle(APIRequest(method: "GET", path: "/inApps/v1/subscriptions/extend/mass/\(product)/\(request)"))
  }

  private func expiry(of original: PaymentTransaction.ID) throws -> Date {
    try XCTUnwrap(store.ledger.everything.subscriptions.first { $0.originalID == original }).expiresDate
  }

  func testEveryActiveSubscriberOfTheProductIsExtendedAndTheStatusCounts() throws {
    let alice = try store.buy(FixtureCatalog.monthly)
    try store.queue.signIn("bob")
    let bob = try store.buy(FixtureCatalog.monthly)
    try store.queue.signIn("carol")
    let carol = try store.buy(FixtureCatalog.yearly)
    let before = try [alice, bob, carol].map { try expiry(of: $0.id) }
    let response = massExtend(body(days: 7))
    XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
    XCTAssertEqual(json(response) as NSDictionary, ["requestIdentifier": "mass-1"])
    XCTAssertEqual(try expiry(of: alice.id), before[0].addingTimeInterval(7 * 86_400))
    XCTAssertEqual(try expiry(of: bob.id), before[1].addingTimeInterval(7 * 86_400))
    XCTAssertEqual(try expiry(of: carol.id), before[2], "another product's subscribers are left alone")
    // The signed transaction the server hands out says the new expiry.
    let info = json(api.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(bob.id)")))
    XCTAssertEqual(
      (TestStore.payload(of: info["signedTransactionInfo"] as? String)["expiresDate"] as? NSNumber)?.int64Value,
      SignedPayloads.milliseconds(before[1].addingTimeInterval(7 * 86_400)))
    let answer = status()
    XCTAssertEqual(answer.status, 200)
    let object = json(answer)
    XCTAssertEqual(object["requestIdentifier"] as? String, "mass-1")
    XCTAssertEqual(object["complete"] as? Bool, true)
    XCTAssertEqual((object["completeDate"] as? NSNumber)?.int64Value, SignedPayloads.milliseconds(store.queue.now))
    XCTAssertEqual((object["succeededCount"] as? NSNumber)?.int64Value, 2)
    XCTAssertEqual((object["failedCount"] as? NSNumber)?.int64Value, 0)
  }

  func testAReusedRequestIdentifierChangesNothing() throws {
    let bought = try store.buy(FixtureCatalog.monthly)
    XCTAssertEqual(massExtend(body(days: 5)).status, 200)
    let once = try expiry(of: bought.id)
    let again = massExtend(body(days: 5))
    XCTAssertEqual(again.status, 200)
    XCTAssertEqual(json(again)["requestIdentifier"] as? String, "mass-1")
    XCTAssertEqual(try expiry(of: bought.id), once)
  }

  func testStorefrontsLimitWhoIsExtended() throws {
    let american = try store.buy(FixtureCatalog.monthly)
    try store.queue.signIn("bob")
    try store.queue.set(.storefront("MEX"))
    let mexican = try store.buy(FixtureCatalog.monthly)
    let before = try [american, mexican].map { try expiry(of: $0.id) }
    XCTAssertEqual(massExtend(body(storefronts: #"["MEX"]"#)).status, 200)
    XCTAssertEqual(try expiry(of: american.id), before[0])
    XCTAssertEqual(try expiry(of: mexican.id), before[1].addingTimeInterval(7 * 86_400))
    XCTAssertEqual((json(status())["succeededCount"] as? NSNumber)?.int64Value, 1)
  }

  func testASubscriberAtTheLimitIsCountedAsFailed() throws {
    let bought = try store.buy(FixtureCatalog.monthly)
    for request in ["a", "b"] {
      XCTAssertEqual(massExtend(body(days: 1, request: request)).status, 200)
    }
    XCTAssertEqual(massExtend(body(days: 1, request: "c")).status, 200)
    let object = json(status(FixtureCatalog.monthly.rawValue, "c"))
    XCTAssertEqual((object["succeededCount"] as? NSNumber)?.int64Value, 0)
    XCTAssertEqual((object["failedCount"] as? NSNumber)?.int64Value, 1)
    XCTAssertNotNil(bought)
  }

  func testBadRequestsGetApplesCodes() throws {
    assertAPIError(massExtend("{"), 4_000_000)
    assertAPIError(massExtend(body(days: 91)), 4_000_009)
    assertAPIError(massExtend(body(days: 0)), 4_000_009)
    assertAPIError(massExtend(#"{"extendByDays":3,"extendReasonCode":9,"requestIdentifier":"r","productId":"p"}"#), 4_000_010)
    assertAPIError(massExtend(#"{"extendByDays":3,"extendReasonCode":1,"productId":"p"}"#), 4_000_011)
    assertAPIError(massExtend(#"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"r"}"#), 4_000_023)
    assertAPIError(massExtend(body(product: "com.example.coins100")), 4_000_023)
    assertAPIError(massExtend(body(product: "no such product")), 4_000_023)
    assertAPIError(massExtend(body(storefronts: "[]")), 4_000_027)
    assertAPIError(massExtend(body(storefronts: #"["ZZZ"]"#)), 4_000_028)
    assertAPIError(massExtend(body(storefronts: #"["US"]"#)), 4_000_028)
    assertAPIError(massExtend(body(storefronts: "[1]")), 4_000_028)
    assertAPIError(status(FixtureCatalog.monthly.rawValue, "never-made"), 4_040_009)
    assertAPIError(status("bad%20product", "r"), 4_000_023)
  }
}
