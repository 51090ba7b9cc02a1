import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class FaultPlanTests: XCTestCase {
  func testARateLimitForTwoRequestsThenTheRealAnswer() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    fixture.api.faults = FaultPlan(faults: [.getTransactionInfo: .init(answer: .rateLimitExceeded, remaining: 2)])
    let path = "/inApps/v1/transactions/\(bought.id)"
    assertAPIError(fixture.get(path), 4_290_000)
    XCTAssertEqual(fixture.get("/inApps/v2/history/\(bought.id)").status, 200)
    assertAPIError(fixture.get(path), 4_290_000)
    XCTAssertEqual(fixture.get(path).status, 200)
    XCTAssertEqual(fixture.api.faults, FaultPlan())
  }

  func testInternalErrorsOnEveryEndpoint() throws {
    let fixture = try APIFixture()
    let bought = try fixture.buy(FixtureCatalog.coins)[0]
    fixture.api.faults = FaultPlan(
      faults: [.getAllSubscriptionStatuses: .init(answer: .generalInternal)], everyEndpoint: .init(answer: .generalInternalRetryable))
    assertAPIError(fixture.get("/inApps/v1/subscriptions/\(bought.id)"), 5_000_000)
    assertAPIError(fixture.get("/inApps/v1/transactions/\(bought.id)"), 5_000_001)
    assertAPIError(fixture.get("/inApps/v1/transactions/\(bought.id)"), 5_000_001)
    XCTAssertEqual(fixture.get("/inApps/v9/nothing").status, 404)
  }

  func testADelayWaitsThenAnswers() throws {
    let store = try TestStore(environment: APIFixture.storeEnvironment(.sandbox))
    let bought = try store.buy(FixtureCatalog.coins)
    let waits = Locked<[Duration]>([])
    let api = AppStoreServerAPI(
      ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start },
      faults: FaultPlan(faults: [.getTransactionInfo: .init(delay: .milliseconds(1500))]),
      sleep: { duration in waits.withLock { $0.append(duration) } })
    XCTAssertEqual(api.handle(APIRequest(method: "GET", path: "/inApps/v1/transactions/\(bought.id)")).status, 200)
    XCTAssertEqual(waits.withLock { $0 }, [.milliseconds(1500)])
  }
}
