import Foundation
import PostgreSQLLedger
import SQLiteLedger
import StoreEngine
import StorefrontTestSupport
import XCTest

/// DECISIONS §44: Retention Messaging's configuration lives in the ledger (a device value), so what
/// one process stored (`storefront serve`'s API, a performance test, `storefront retention review`)
/// reaches another on the same ledger through the commit log — a TUI on another host of a
/// PostgreSQL team sandbox too.
final class RetentionLedgerTests: XCTestCase {
  private func engine(_ ledger: any LedgerStore) throws -> PaymentQueue {
    let environment = StoreEnvironment(passwordHasher: InsecureTestHasher(), start: TestStore.start, firstTransactionID: 1)
    return try PaymentQueue(catalog: FixtureCatalog.make(), ledger: ledger, environment: environment)
  }

  private func checkAcrossProcesses(_ open: () throws -> any LedgerStore) throws {
    let watcher = try engine(open())
    XCTAssertEqual(watcher.retentionMessaging, RetentionMessaging())
    // The server's side: its own connection, as `storefront serve` has.
    let server = RetentionMessagingStore(ledger: try open())
    try server.update { $0.realtimeURLs["Sandbox"] = "http://127.0.0.1:9/retention" }
    try server.update { $0.reviewOutcome = .rejected }
    // Another process's own connection reads it at once.
    let other = RetentionMessagingStore(ledger: try open())
    XCTAssertEqual(other.read().realtimeURLs, ["Sandbox": "http://127.0.0.1:9/retention"])
    XCTAssertEqual(other.read().reviewOutcome, .rejected)
    // A running engine takes it in from the commit log.
    try watcher.refresh()
    XCTAssertEqual(watcher.retentionMessaging.realtimeURLs["Sandbox"], "http://127.0.0.1:9/retention")
    XCTAssertEqual(watcher.retentionMessaging.reviewOutcome, .rejected)
    // A change from the other side keeps the first writer's.
    try other.update { $0.defaults["com.example.pro/en-US"] = "message-1" }
    XCTAssertEqual(server.read().realtimeURLs["Sandbox"], "http://127.0.0.1:9/retention")
    XCTAssertEqual(server.read().defaults, ["com.example.pro/en-US": "message-1"])
    try watcher.refresh()
    XCTAssertEqual(watcher.retentionMessaging.defaults, ["com.example.pro/en-US": "message-1"])
    // And a relaunch reads it.
    XCTAssertEqual(try engine(open()).retentionMessaging, server.read())
  }

  func testConfigurationTravelsTheSQLiteCommitLog() throws {
    let directory = try TemporaryDirectory()
    try checkAcrossProcesses { try SQLiteLedgerStore(directory: directory.url) }
  }

  func testConfigurationTravelsThePostgreSQLCommitLog() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "retention")
    try checkAcrossProcesses { try PostgreSQLLedgerStore(uri) }
  }

  /// Two servers changing the configuration at once both keep their change: the later commit
  /// finds the value changed since it read it and redoes its change on the newer one.
  private func checkConcurrentChangesBothLand(_ open: () throws -> any LedgerStore) throws {
    let first = RetentionMessagingStore(ledger: try open())
    let second = RetentionMessagingStore(ledger: try open())
    var tries = 0
    try first.update { state in
      tries += 1
      // Between this read and its commit, another server stores its realtime URL.
      if tries == 1 { try? second.update { $0.realtimeURLs["Production"] = "http://127.0.0.1:9/production" } }
      state.realtimeURLs["Sandbox"] = "http://127.0.0.1:9/sandbox"
    }
    XCTAssertEqual(tries, 2, "the first change is redone once on the second's value")
    XCTAssertEqual(
      RetentionMessagingStore(ledger: try open()).read().realtimeURLs,
      ["Production": "http://127.0.0.1:9/production", "Sandbox": "http://127.0.0.1:9/sandbox"])
  }

  func testConcurrentChangesBothLandOnSQLite() throws {
    let directory = try TemporaryDirectory()
    try checkConcurrentChangesBothLand { try SQLiteLedgerStore(directory: directory.url) }
  }

  func testConcurrentChangesBothLandOnPostgreSQL() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "retention-race")
    try checkConcurrentChangesBothLand { try PostgreSQLLedgerStore(uri) }
  }

  /// An earlier build's `retention-messaging.json` is imported once: the file is renamed, and a
  /// second import (or a file that reappears) never overwrites what the ledger holds.
  func testAnEarlierBuildsFileIsImportedOnce() throws {
    let directory = try TemporaryDirectory()
    let legacy = directory.url.appendingPathComponent(RetentionMessagingFile.fileName)
    try Data(#"{"realtimeURLs":{"Sandbox":"http://127.0.0.1:9/old"},"reviewOutcome":"PENDING"}"#.utf8).write(to: legacy)
    let store = RetentionMessagingStore(ledger: try SQLiteLedgerStore(directory: directory.url))
    XCTAssertEqual(store.importLegacyFile(from: directory.url), .imported(renamedTo: legacy.path + ".imported"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: legacy.path))
    XCTAssertEqual(store.read().realtimeURLs, ["Sandbox": "http://127.0.0.1:9/old"])
    XCTAssertEqual(store.read().reviewOutcome, .pending)
    XCTAssertEqual(store.importLegacyFile(from: directory.url), .none)
    try Data(#"{"realtimeURLs":{"Sandbox":"http://127.0.0.1:9/newer"}}"#.utf8).write(to: legacy)
    XCTAssertEqual(store.importLegacyFile(from: directory.url), .ignored(path: legacy.path))
    XCTAssertEqual(store.read().realtimeURLs, ["Sandbox": "http://127.0.0.1:9/old"])
  }
}
