import Foundation
import StoreEngine
import XCTest

@testable import PostgreSQLLedger

/// The shared credential table (the CA, API keys, the shared secret) after the server ended its
/// session, as a restart does: reads and puts run again on a new connection, and a locked body that
/// met the loss runs again from its start, so what it writes lands once.
final class PostgreSQLSecretTableTests: XCTestCase {
  /// Ends every other session on the database (the table's own included).
  private func terminateOthers(on uri: String) throws -> Int {
    let admin = try PostgreSQLConnection(PostgreSQLAddress(uri))
    let ended = try admin.execute(
      "SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
    return Int(ended.text(0, 0) ?? "0") ?? 0
  }

  func testReadsPutsAndLockedBodiesRideThroughAnEndedSession() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "secrets")
    let table = try PostgreSQLSecretTable(address: PostgreSQLAddress(uri))
    try table.put([("root-ca.pem", "first")])
    XCTAssertGreaterThan(try terminateOthers(on: uri), 0)
    XCTAssertEqual(try table.values(["root-ca.pem", "missing"]), ["root-ca.pem": "first"], "a read after the loss")
    XCTAssertGreaterThan(try terminateOthers(on: uri), 0)
    try table.put([("api-keys.json", "{}")])
    XCTAssertEqual(try table.values(["api-keys.json"]), ["api-keys.json": "{}"], "a put after the loss")

    // The session ends in the middle of a locked read-modify-write: the body runs again, once.
    var runs = 0
    let written: String = try table.withLock {
      runs += 1
      let current = try table.values(["api-keys.json"])["api-keys.json"] ?? ""
      if runs == 1 { XCTAssertGreaterThan(try terminateOthers(on: uri), 0) }
      let next = current + "+key"
      try table.put([("api-keys.json", next)])
      return next
    }
    XCTAssertEqual(runs, 2)
    XCTAssertEqual(written, "{}+key")
    XCTAssertEqual(try table.values(["api-keys.json"]), ["api-keys.json": "{}+key"], "written once, not twice")
  }
}
