import Dispatch
import StoreEngine
import XCTest

final class LockedTests: XCTestCase {
  func testConcurrentUpdatesAreNotLost() {
    let counter = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<1_000 { counter.withLock { $0 += 1 } }
    }
    XCTAssertEqual(counter.withLock { $0 }, 8_000)
  }

  func testWithLockReturnsAndRethrows() {
    struct Refused: Error {}
    let names = Locked(["a"])
    XCTAssertEqual(names.withLock { list -> Int in list.append("b"); return list.count }, 2)
    XCTAssertThrowsError(try names.withLock { _ in throw Refused() })
    XCTAssertEqual(names.withLock { $0 }, ["a", "b"], "a throwing body leaves the value as it was")
  }
}
