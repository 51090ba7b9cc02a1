import Foundation
import StorefrontProcessTestSupport
import XCTest

extension XCTestCase {
  /// A new database on the tests' PostgreSQL server, as a shared-ledger URI; skips the test when
  /// there is no server, except under CI, which must run the PostgreSQL tests.
  func sharedLedgerDatabase(_ label: String) throws -> String {
    do {
      return try PostgreSQLTestServer.shared().makeDatabase(label: label)
    } catch let unavailable as PostgreSQLTestServer.Unavailable {
      if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI must run the PostgreSQL tests: \(unavailable)") }
      throw XCTSkip("PostgreSQL tests skipped: \(unavailable)")
    }
  }
}
