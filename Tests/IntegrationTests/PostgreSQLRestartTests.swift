import Foundation
import PostgreSQLLedger
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

/// A `storefront run` buying on a shared ledger while its PostgreSQL restarts (immediate stop: every
/// session cut, as in a crash): the run reconnects with back-off and goes on, says so on standard
/// error, and every purchase it reports is in the ledger once (DECISIONS §27).
final class PostgreSQLRestartTests: XCTestCase {
  private let coins = "com.jake.sample.ExInAppPurchase.coins100"

  func testARunRidesThroughARestartAndLosesNothing() throws {
    let ci = ProcessInfo.processInfo.environment["CI"] == "true"
    guard PostgreSQLCluster.installedBinaries() != nil else {
      if ci { XCTFail("CI must run the PostgreSQL restart test: no PostgreSQL server") }
      throw XCTSkip("PostgreSQL restart test skipped: no PostgreSQL server (Debian: postgresql)")
    }
    let cluster = try PostgreSQLCluster()
    addTeardownBlock { cluster.stop() }
    let uri = try cluster.makeDatabase("sf_restart")
    let directory = try TemporaryDirectory(self)
    let purchases = 150
    let script = (["set dialogs off"] + (0..<purchases).flatMap { _ in ["buy \(coins)", "finish last"] }).joined(separator: "\n") + "\n"
    var bought = 0
    var restarted = false
    var restartError: Error?
    let result = try StorefrontBinary.isolated(in: directory.url, timeout: 180).stream(
      ["run", "-", "--json", "--data-dir", directory.path("data"), "--ledger", uri, "--account", "rider"],
      stdin: Data(script.utf8), environment: Self.environment
    ) { line, _ in
      if line.contains("\"transactionUpdated\""), line.contains("\"purchased\"") { bought += 1 }
      if bought == 20, !restarted {
        restarted = true
        do { try cluster.restart() } catch { restartError = error }
      }
      return false
    }
    XCTAssertNil(restartError)
    XCTAssertTrue(restarted, "the restart happened mid-run: \(result.summary)")
    XCTAssertEqual(result.status, 0, result.summary)
    XCTAssertTrue(result.stderr.contains("storefront: the ledger postgresql://postgres@127.0.0.1:\(cluster.port)/sf_restart is unreachable ("), result.stderr)
    XCTAssertTrue(result.stderr.contains("reconnecting (attempt 1, next in 0.1 s)"), result.stderr)
    XCTAssertTrue(result.stderr.contains("is back; reconnected after"), result.stderr)
    let reported = EventLine.parse(result.stdout, source: "run")
      .filter { $0.event == "transactionUpdated" && $0.state == "purchased" }.compactMap(\.transactionID)
    XCTAssertEqual(reported.count, purchases, "every purchase completed")
    XCTAssertEqual(Set(reported).count, purchases, "none reported twice")
    let stored = try PostgreSQLLedgerStore(uri).allTransactions().filter { $0.productID.rawValue == coins }
    XCTAssertEqual(stored.count, purchases, "each purchase in the ledger once")
    XCTAssertEqual(Set(stored.map(\.id.description)), Set(reported))
    XCTAssertTrue(stored.allSatisfy { $0.state == .purchased && $0.isFinished })
  }

  /// The one environment every `storefront` of this file runs with: the team key the shared CA
  /// needs on a PostgreSQL ledger (harmless before it is used).
  private static let environment = ["STOREFRONT_KEY_ENCRYPTION_KEY": String(repeating: "5eed", count: 16)]
}
