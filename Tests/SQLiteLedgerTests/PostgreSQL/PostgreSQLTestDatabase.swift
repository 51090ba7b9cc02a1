import Foundation
import StorefrontProcessTestSupport
import XCTest

/// A fresh, empty database for one PostgreSQL test. Without a server the test is skipped with the
/// reason, except under CI (`CI=true`), where a missing server fails it: CI must run these tests.
enum PostgreSQLTestDatabase {
  static func make(label: String = "ledger") throws -> String {
    let server: PostgreSQLTestServer
    do {
      server = try PostgreSQLTestServer.shared()
    } catch let unavailable as PostgreSQLTestServer.Unavailable {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI must run the PostgreSQL tests: \(unavailable)")
      }
      throw XCTSkip("PostgreSQL tests skipped: \(unavailable)")
    }
    return try server.makeDatabase(label: label)
  }
}
