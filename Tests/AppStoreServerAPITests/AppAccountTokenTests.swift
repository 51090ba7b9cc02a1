import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Set App Account Token.
final class AppAccountTokenTests: XCTestCase {
  private var store: TestStore!
  private var api: AppStoreServerAPI!
  private let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"

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

  private func setToken(_ id: String, _ body: String) -> APIResponse {
    api.handle(APIRequest(method: "PUT", path: "/inApps/v1/transactions/\(id)/appAccountToken", body: Data(body.utf8)))
  }

  private func signedPayload(_ id: PaymentTransaction.ID) -> [String: Any] {
    let info = json(api.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(id)")))
    return TestStore.payload(of: info["signedTransactionInfo"] as? String)
  }

  func testThePurchaseIsResignedWithTheToken() throws {
    let bought = try store.buy(FixtureCatalog.removeAds)
    XCTAssertNil(signedPayload(bought.id)["appAccountToken"])
    let response = setToken(bought.id.description, #"{"appAccountToken":"\#(token)"}"#)
    XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
    XCTAssertTrue(response.body.isEmpty)
    XCTAssertEqual(signedPayload(bought.id)["appAccountToken"] as? String, token.lowercased())
    XCTAssertEqual(try store.queue.transaction(bought.id)?.appAccountToken, token.lowercased())
  }

  func testASubscriptionsRenewalsAndRenewalInfoCarryTheToken() throws {
    let bought = try store.buy(FixtureCatalog.monthly)
    try store.queue.finish(bought.id)
    try store.queue.forceRenewal(bought.id)
    let renewal = try XCTUnwrap(store.ledger.everything.transactions.last)
    XCTAssertNotEqual(renewal.id, bought.id)
    XCTAssertEqual(setToken(bought.id.description, #"{"appAccountToken":"\#(token)"}"#).status, 200)
    XCTAssertEqual(signedPayload(bought.id)["appAccountToken"] as? String, token.lowercased())
    XCTAssertEqual(signedPayload(renewal.id)["appAccountToken"] as? String, token.lowercased(), "the current period")
    let record = try XCTUnwrap(store.ledger.everything.subscriptions.first)
    XCTAssertEqual(TestStore.payload(of: record.signedRenewalInfo)["appAccountToken"] as? String, token.lowercased())
    try store.queue.forceRenewal(bought.id)
    let next = try XCTUnwrap(store.ledger.everything.transactions.last)
    XCTAssertEqual(TestStore.payload(of: next.signedTransaction)["appAccountToken"] as? String, token.lowercased(), "later renewals")
    assertAPIError(setToken(renewal.id.description, #"{"appAccountToken":"\#(token)"}"#), 4_000_187)
  }

  func testBadRequestsGetApplesCodes() throws {
    let bought = try store.buy(FixtureCatalog.removeAds)
    let id = bought.id.description
    assertAPIError(setToken(id, #"{"appAccountToken":"not-a-uuid"}"#), 4_000_183)
    assertAPIError(setToken(id, #"{"appAccountToken":7}"#), 4_000_183)
    assertAPIError(setToken(id, "{}"), 4_000_183)
    assertAPIError(setToken(id, "{"), 4_000_000)
    assertAPIError(setToken("abc", #"{"appAccountToken":"\#(token)"}"#), 4_000_006)
    assertAPIError(setToken("9999999999", #"{"appAccountToken":"\#(token)"}"#), 4_040_005)
  }
}
