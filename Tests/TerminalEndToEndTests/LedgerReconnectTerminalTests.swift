import Foundation
import StorefrontProcessTestSupport
import XCTest

/// The TUI on a shared PostgreSQL ledger whose server stops: the header says it is reconnecting,
/// with the attempt, while the server is away, and the TUI carries on (a purchase lands) once it is
/// back (DECISIONS §27).
final class LedgerReconnectTerminalTests: XCTestCase {
  func testTheHeaderShowsTheReconnectWhileTheServerIsStoppedAndTheTUIRecovers() throws {
    let ci = ProcessInfo.processInfo.environment["CI"] == "true"
    guard PostgreSQLCluster.installedBinaries() != nil else {
      if ci { XCTFail("CI must run the PostgreSQL TUI test: no PostgreSQL server") }
      throw XCTSkip("PostgreSQL TUI test skipped: no PostgreSQL server (Debian: postgresql)")
    }
    let session = try TmuxSession()
    let cluster = try PostgreSQLCluster()
    addTeardownBlock { cluster.stop() }
    let uri = try cluster.makeDatabase("sf_tui_reconnect")
    try launch(session, ledger: uri, account: "jake")
    try session.waitFor("[ Restore Purchases ]")
    try cluster.kill()
    try session.waitFor("ledger: reconnecting (attempt", timeout: 30)
    try session.waitFor("ledger: reconnecting (attempt 3)", timeout: 30)
    try cluster.start()
    try session.waitUntil("the header stops reconnecting", timeout: 30) { !(try session.screen().contains("ledger: reconnecting")) }
    try session.send("Enter")  // Remove Ads is the first row
    try session.waitFor("Confirm Your In-App Purchase")
    try session.send("Enter")
    try session.waitFor("owned")
    try session.send("q")
    try session.waitFor("EXIT=0")
    let listed = try session.storefront(["transactions", "--all", "--json", "--ledger", uri]).output
    XCTAssertTrue(listed.contains("\"com.jake.sample.ExInAppPurchase.shopping\""), listed)
    XCTAssertTrue(listed.contains("\"purchased\""), listed)
  }

  /// The one way this file starts `storefront` on a PostgreSQL ledger: with the team key the shared
  /// CA needs in its environment (harmless before it is used).
  private func launch(_ session: TmuxSession, ledger uri: String, account: String) throws {
    try session.type("export STOREFRONT_KEY_ENCRYPTION_KEY=\(String(repeating: "5eed", count: 16))")
    try session.send("Enter")
    try session.launch("--ledger '\(uri)' --account \(account)")
  }
}
