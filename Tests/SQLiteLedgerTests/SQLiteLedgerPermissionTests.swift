import Foundation
import StoreEngine
import XCTest

@testable import SQLiteLedger

/// Directory 0700, database files 0600: created that way, fixed with a warning, or refused.
final class SQLiteLedgerPermissionTests: XCTestCase {
  func testNewDirectoryAndFilesArePrivate() throws {
    let root = try TemporaryDirectory()
    let directory = root.url.appendingPathComponent("nested/data")
    let store = try SQLiteLedgerStore(directory: directory)
    try store.commit([.setCurrentAccount("v")])
    XCTAssertEqual(TemporaryDirectory.mode(directory.path), 0o700)
    XCTAssertEqual(TemporaryDirectory.mode(store.path), 0o600)
    XCTAssertEqual(TemporaryDirectory.mode(store.path + "-wal"), 0o600)
    XCTAssertEqual(TemporaryDirectory.mode(store.path + "-shm"), 0o600)
    XCTAssertEqual(store.warnings, [])
  }

  func testReadableDirectoryAndFilesAreFixedWithWarnings() throws {
    let directory = try TemporaryDirectory()
    do {
      let store = try SQLiteLedgerStore(directory: directory.url)
      try store.commit([.setCurrentAccount("v")])
    }
    XCTAssertEqual(chmod(directory.url.path, 0o755), 0)
    XCTAssertEqual(chmod(directory.ledgerPath, 0o644), 0)
    let store = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(TemporaryDirectory.mode(directory.url.path), 0o700)
    XCTAssertEqual(TemporaryDirectory.mode(directory.ledgerPath), 0o600)
    XCTAssertEqual(TemporaryDirectory.mode(directory.ledgerPath + "-wal"), 0o600)
    XCTAssertEqual(store.warnings.count, 2, "\(store.warnings)")
    XCTAssertEqual(
      store.warnings.first,
      "The data directory '\(directory.url.path)' was readable by other users (mode 0755); changed it to 0700."
    )
    XCTAssertEqual(
      store.warnings.last,
      "The ledger file '\(directory.ledgerPath)' was readable by other users (mode 0644); changed it to 0600."
    )
    XCTAssertEqual(try store.load().currentAccount, "v")
  }

  func testReadableWALFileIsFixed() throws {
    let directory = try TemporaryDirectory()
    let writer = try SQLiteLedgerStore(directory: directory.url)
    try writer.commit([.setCurrentAccount("v")])
    // While the writer is open the WAL file exists; make it readable by others.
    XCTAssertEqual(chmod(directory.ledgerPath + "-wal", 0o644), 0)
    let second = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(TemporaryDirectory.mode(directory.ledgerPath + "-wal"), 0o600)
    XCTAssertEqual(second.warnings.count, 1, "\(second.warnings)")
    XCTAssertTrue(second.warnings.first?.contains("ledger WAL file") ?? false)
  }

  func testFilePathInitLeavesTheDirectoryAlone() throws {
    let directory = try TemporaryDirectory()
    XCTAssertEqual(chmod(directory.url.path, 0o755), 0)
    let store = try SQLiteLedgerStore(fileURL: directory.url.appendingPathComponent("shared.db"))
    XCTAssertEqual(TemporaryDirectory.mode(directory.url.path), 0o755)
    XCTAssertEqual(TemporaryDirectory.mode(store.path), 0o600)
    XCTAssertEqual(store.warnings, [])
  }

  func testReadableFileThatCannotBeFixedIsRefused() throws {
    let directory = try TemporaryDirectory()
    do { _ = try SQLiteLedgerStore(directory: directory.url) }
    XCTAssertEqual(chmod(directory.ledgerPath, 0o644), 0)
    // An immutable file refuses chmod, even to root.
    try directory.makeImmutable(directory.ledgerPath)
    XCTAssertThrowsError(try SQLiteLedgerStore(directory: directory.url)) { error in
      guard case .cannotOpen(let path, let reason) = error as? LedgerError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, directory.ledgerPath)
      XCTAssertTrue(reason.contains("mode 0644") && reason.contains("chmod 0600"), reason)
    }
    XCTAssertEqual(TemporaryDirectory.mode(directory.ledgerPath), 0o644)
  }
}
