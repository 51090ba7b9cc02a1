import Dispatch
import StoreEngine
import XCTest

final class EventLog: Sendable {
  private let storage = Locked<[StoreEvent]>([])
  func append(_ event: StoreEvent) { storage.withLock { $0.append(event) } }
  var events: [StoreEvent] { storage.withLock { $0 } }
}

final class EventBusTests: XCTestCase {
  struct Ping: Sendable, Equatable { var n: Int }
  struct Other: Sendable {}

  func testDeliversInOrderToSubscribersInSubscriptionOrder() {
    let bus = EventBus()
    let log = Locked<[String]>([])
    let a = bus.subscribe(Ping.self) { ping in log.withLock { $0.append("a\(ping.n)") } }
    let b = bus.subscribe(Ping.self) { ping in log.withLock { $0.append("b\(ping.n)") } }
    bus.post(Ping(n: 1))
    bus.post(Other())
    bus.post(Ping(n: 2))
    XCTAssertEqual(log.withLock { $0 }, ["a1", "b1", "a2", "b2"])
    withExtendedLifetime((a, b)) {}
  }

  func testTokenGoingAwayUnsubscribes() {
    let bus = EventBus()
    let count = Locked(0)
    var token: Subscription? = bus.subscribe(Ping.self) { _ in count.withLock { $0 += 1 } }
    bus.post(Ping(n: 1))
    XCTAssertNotNil(token)
    token = nil
    bus.post(Ping(n: 2))
    XCTAssertEqual(count.withLock { $0 }, 1)
    XCTAssertEqual(bus.subscriberCount(for: Ping.self), 0)
  }

  func testQueueExecutorDeliversInOrderOnThatQueue() {
    let bus = EventBus()
    let queue = DispatchQueue(label: "subscriber")
    let received = Locked<[Int]>([])
    let done = expectation(description: "all delivered")
    let token = bus.subscribe(Ping.self, on: .queue(queue)) { ping in
      dispatchPrecondition(condition: .onQueue(queue))
      let count = received.withLock { list in list.append(ping.n); return list.count }
      if count == 100 { done.fulfill() }
    }
    for n in 0..<100 { bus.post(Ping(n: n)) }
    wait(for: [done], timeout: 5)
    XCTAssertEqual(received.withLock { $0 }, Array(0..<100))
    token.cancel()
  }
}
