import StoreEngine
import StorefrontTestSupport
import XCTest

final class RenewalExtensionEngineTests: XCTestCase {
  let day: TimeInterval = 86_400

  func testTheNextRenewalComesAtTheExtendedDate() throws {
    let store = try TestStore()
    let first = try store.buy(FixtureCatalog.monthly)  // a one-week trial
    let step = try store.queue.perform(.extendRenewalDate(first.id, days: 3, requestID: "r1"))
    let amended = step.events.compactMap { if case .transactionsAmended(let list) = $0 { list } else { nil } }.flatMap { $0 }
    XCTAssertEqual(amended.map(\.id), [first.id])
    XCTAssertEqual(amended.first?.expiresDate, TestStore.start.addingTimeInterval(10 * day))
    guard case .subscriptionChanged(let record, let reason) = step.events.last else { return XCTFail("\(step.events)") }
    XCTAssertEqual(reason, "renewal date extended")
    XCTAssertEqual(record.renewalExtensions, [RenewalExtension(requestID: "r1", days: 3, date: TestStore.start)])
    try store.queue.advance(by: 7 * day)
    XCTAssertEqual(try store.queue.history().filter { $0.reason == .renewal }.count, 0)
    try store.queue.advance(by: 3 * day)
    XCTAssertEqual(try store.queue.history().filter { $0.reason == .renewal }.count, 1)
  }

  func testRefusals() throws {
    let store = try TestStore()
    let first = try store.buy(FixtureCatalog.monthly)
    try store.queue.perform(.extendRenewalDate(first.id, days: 1, requestID: "a"))
    XCTAssertEqual(try store.queue.perform(.extendRenewalDate(first.id, days: 1, requestID: "a")).changes, [])
    try store.queue.perform(.extendRenewalDate(first.id, days: 1, requestID: "b"))
    XCTAssertThrowsError(try store.queue.perform(.extendRenewalDate(first.id, days: 1, requestID: "c"))) {
      XCTAssertEqual($0 as? EngineError, .cannotExtend(first.id, because: .tooManyExtensions))
    }
    try store.queue.expireSubscription(first.id)
    XCTAssertThrowsError(try store.queue.perform(.extendRenewalDate(first.id, days: 1, requestID: "d"))) {
      XCTAssertEqual($0 as? EngineError, .cannotExtend(first.id, because: .notActive))
    }
    let coins = try store.buy(FixtureCatalog.coins)
    XCTAssertThrowsError(try store.queue.perform(.extendRenewalDate(coins.id, days: 1, requestID: "e"))) {
      XCTAssertEqual($0 as? EngineError, .notSubscription(coins.id))
    }
  }
}
