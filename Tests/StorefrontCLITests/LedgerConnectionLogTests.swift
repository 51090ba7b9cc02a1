import Foundation
import StoreEngine
import XCTest

@testable import StorefrontCLI

/// The lines `run` and `serve` write on standard error while a shared ledger reconnects.
final class LedgerConnectionLogTests: XCTestCase {
  func testOneLinePerAttemptThenOneWhenBackAndNothingWhenNeverLost() {
    let console = CapturedConsole()
    let log = LedgerConnectionLog(io: console, name: "postgresql://qa@db:5432/team")
    log.report(.connected)
    XCTAssertEqual(console.errorOutput, "", "connected from the start: nothing to say")
    log.report(.reconnecting(attempt: 1, nextIn: .milliseconds(100), lastError: "server closed the connection unexpectedly"))
    log.report(.reconnecting(attempt: 2, nextIn: .milliseconds(200), lastError: "Connection refused"))
    log.report(.connected)
    log.report(.gaveUp(attempts: 16, lastError: "Connection refused"))
    XCTAssertEqual(
      console.errorOutput.split(separator: "\n"),
      [
        "storefront: the ledger postgresql://qa@db:5432/team is unreachable (server closed the connection unexpectedly); reconnecting (attempt 1, next in 0.1 s)",
        "storefront: the ledger postgresql://qa@db:5432/team is unreachable (Connection refused); reconnecting (attempt 2, next in 0.2 s)",
        "storefront: the ledger postgresql://qa@db:5432/team is back; reconnected after 2 attempts",
        "storefront: the ledger postgresql://qa@db:5432/team is still unreachable after 16 attempts (Connection refused); giving up",
      ])
  }
}
