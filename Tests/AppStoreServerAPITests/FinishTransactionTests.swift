import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Finish Transaction: the server finishes what the app has not.
final class FinishTransactionTests: XCTestCase {
  func testTheTransactionLeavesTheAppsQueue() throws {
    let store = try TestStore(environment: APIFixture.storeEnvironment(.sandbox))
    let bought = try store.buy(FixtureCatalog.removeAds)
    XCTAssertEqual(store.queue.unfinishedTransactions.map(\.id), [bought.id])
    let api = AppStoreServerAPI(
      ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start },
      perform: { command throws(EngineError) in
        try store.queue.refresh()
        return try store.queue.perform(command)
      })
    let finish = APIRequest(method: "POST", path: "/inApps/v1/transactions/\(bought.id)/finish")
    let response = api.handle(finish)
    XCTAssertEqual(response.status, 200)
    XCTAssertTrue(response.body.isEmpty)
    XCTAssertEqual(store.queue.unfinishedTransactions, [])
    XCTAssertEqual(try store.ledger.transactions([bought.id]).first?.isFinished, true)
    XCTAssertEqual(store.observer.calls.last, "removed \(bought.id)", "the app hears of it as of its own finish")
    XCTAssertEqual(api.handle(finish).status, 200, "finishing again is the same answer")
    assertAPIError(api.handle(APIRequest(method: "POST", path: "/inApps/v1/transactions/x/finish")), 4_000_006)
    assertAPIError(api.handle(APIRequest(method: "POST", path: "/inApps/v1/transactions/5/finish")), 4_040_010)
    XCTAssertEqual(api.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(bought.id)/finish")).status, 405)
  }

  func testWithoutAnEngineItIsNotServed() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.removeAds, finish: false)[0]
    XCTAssertEqual(fixture.send("POST", "/inApps/v1/transactions/\(bought.id)/finish", body: "").status, 404)
  }
}
