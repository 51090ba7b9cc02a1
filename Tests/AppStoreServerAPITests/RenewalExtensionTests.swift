import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class RenewalExtensionTests: XCTestCase {
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

  private func extend(_ id: String, days: Int = 10, reason: Int = 1, request: String = "fdf964a4-233b-486c-aac1-97d8d52688ac") -> APIResponse {
    let body = #"{"extendByDays":\#(days),"extendReasonCode":\#(reason),"requestIdentifier":"\#(request)"}"#
    return api.handle(APIRequest(method: "PUT", path: "/inApps/v1/subscriptions/extend/\(id)", body: Data(body.utf8)))
  }

  func testExtendsTheCurrentPeriodAndResignsIt() throws {
    let bought = try store.buy(FixtureCatalog.monthly)
    let before = try XCTUnwrap(store.ledger.everything.subscriptions.first)
    let response = extend(bought.id.description, days: 10)
    XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
    let object = json(response)
    let expected = SignedPayloads.milliseconds(before.expiresDate.addingTimeInterval(10 * 86_400))
    XCTAssertEqual(object["originalTransactionId"] as? String, bought.id.description)
    XCTAssertEqual(object["webOrderLineItemId"] as? String, String(before.webOrderLineItemID))
    XCTAssertEqual(object["success"] as? Bool, true)
    XCTAssertEqual((object["effectiveDate"] as? NSNumber)?.int64Value, expected)
    let after = try XCTUnwrap(store.ledger.everything.subscriptions.first)
    XCTAssertEqual(SignedPayloads.milliseconds(after.expiresDate), expected)
    XCTAssertNotEqual(after.signedRenewalInfo, before.signedRenewalInfo)
    let info = api.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(bought.id)"))
    let jws = json(info)["signedTransactionInfo"] as? String
    XCTAssertEqual((TestStore.payload(of: jws)["expiresDate"] as? NSNumber)?.int64Value, expected)
  }

  func testARepeatedRequestIdentifierExtendsOnce() throws {
    let bought = try store.buy(FixtureCatalog.monthly)
    let first = json(extend(bought.id.description, days: 5))["effectiveDate"] as? NSNumber
    let again = json(extend(bought.id.description, days: 5))["effectiveDate"] as? NSNumber
    XCTAssertNotNil(first)
    XCTAssertEqual(first, again)
  }

  func testAtMostTwoExtensionsAYear() throws {
    let bought = try store.buy(FixtureCatalog.monthly)
    XCTAssertEqual(extend(bought.id.description, request: "a").status, 200)
    XCTAssertEqual(extend(bought.id.description, request: "b").status, 200)
    assertAPIError(extend(bought.id.description, request: "c"), 4_030_005)
  }

  func testAnExpiredSubscriptionIsIneligible() throws {
    let bought = try store.buy(FixtureCatalog.monthly)
    try store.queue.expireSubscription(bought.id)
    assertAPIError(extend(bought.id.description), 4_030_004)
  }

  func testBadRequests() throws {
    let bought = try store.buy(FixtureCatalog.monthly)
    let coins = try store.buy(FixtureCatalog.coins)
    let id = bought.id.description
    assertAPIError(extend(id, days: 0), 4_000_009)
    assertAPIError(extend(id, days: 91), 4_000_009)
    assertAPIError(extend(id, reason: 4), 4_000_010)
    assertAPIError(extend(id, request: ""), 4_000_011)
    assertAPIError(extend("abc"), 4_000_008)
    assertAPIError(extend("123"), 4_040_005)
    assertAPIError(extend(coins.id.description), 4_040_005)
    let bad = api.handle(APIRequest(method: "PUT", path: "/inApps/v1/subscriptions/extend/\(id)", body: Data("{".utf8)))
    assertAPIError(bad, 4_000_000)
  }

  func testWithoutAnEngineTheEndpointIsNotServed() throws {
    let bought = try store.buy(FixtureCatalog.monthly)
    let readOnly = AppStoreServerAPI(ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start })
    let body = Data(#"{"extendByDays":1,"extendReasonCode":1,"requestIdentifier":"x"}"#.utf8)
    XCTAssertEqual(readOnly.handle(APIRequest(method: "PUT", path: "/inApps/v1/subscriptions/extend/\(bought.id)", body: body)).status, 404)
  }
}
