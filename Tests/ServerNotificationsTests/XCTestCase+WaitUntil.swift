import Foundation
import XCTest

extension XCTestCase {
  /// Polls `condition` every 2 ms until it holds, failing after 20 s: the receiver and the deliverer
  /// give no signal to wait on, so the wait is bounded instead.
  func waitUntil(_ what: String = "condition", _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while try !condition() {
      guard ContinuousClock.now < deadline else { return XCTFail("\(what): not within 20 s") }
      usleep(2_000)
    }
  }
}
