import Foundation
import StoreEngine
import XCTest

@testable import SQLiteLedger

/// Each fault gives a clear ``LedgerError`` naming the file, and no partial write.
final class SQLiteLedgerFaultTests: XCTestCase {
  private func assertError(
    _ expression: @autoclosure () throws -> some Any, file: StaticString = #filePath,
    line: UInt = #line,
    _ check: (LedgerError) -> Bool
  ) {
    XCTAssertThrowsError(try expression(), file: file, line: line) { error in
      guard let ledgerError = error as? LedgerError else {
        return XCTFail("not a LedgerError: \(error)", file: file, line: line)
      }
      XCTAssertTrue(check(ledgerError), "unexpected \(ledgerError)", file: file, line: line)
    }
  }

  func testMissingDirectoryForAFilePath() throws {
    let root = try TemporaryDirectory()
    let file = root.url.appendingPathComponent("missing/ledger.sqlite")
    assertError(try SQLiteLedgerStore(fileURL: file)) { error in
      guard case .cannotOpen(file.path, let reason) = error else { return false }
      return reason.contains("'\(root.url.path)/missing' does not exist")
        && error.description.contains(file.path)
    }
  }

  func testDataDirectoryThatIsAFile() throws {
    let root = try TemporaryDirectory()
    let notDirectory = root.url.appendingPathComponent("file")
    try Data("x".utf8).write(to: notDirectory)
    assertError(try SQLiteLedgerStore(directory: notDirectory)) { error in
      guard case .cannotOpen(_, let reason) = error else { return false }
      return reason.contains("is a file, not a directory")
    }
    assertError(try SQLiteLedgerStore(directory: notDirectory.appendingPathComponent("below"))) {
      error in
      guard case .cannotOpen(_, let reason) = error else { return false }
      return reason.contains("could not be created")
    }
  }

  func testReadOnlyDirectoryForANewLedger() throws {
    let directory = try TemporaryDirectory()
    try directory.makeUnwritable(directory.url.path, mode: 0o500)
    assertError(try SQLiteLedgerStore(directory: directory.url)) {
      $0 == .readOnly(path: directory.ledgerPath)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.ledgerPath))
  }

  func testReadOnlyDirectoryWithAnExistingLedger() throws {
    let directory = try TemporaryDirectory()
    try SQLiteLedgerStore(directory: directory.url).commit([.setCurrentAccount("v")])
    try directory.makeUnwritable(directory.url.path, mode: 0o500)
    assertError(try SQLiteLedgerStore(directory: directory.url)) {
      $0 == .readOnly(path: directory.ledgerPath)
    }
  }

  func testReadOnlyDatabaseFile() throws {
    let directory = try TemporaryDirectory()
    try SQLiteLedgerStore(directory: directory.url).commit([.setCurrentAccount("v")])
    try directory.makeUnwritable(directory.ledgerPath, mode: 0o400)
    assertError(try SQLiteLedgerStore(directory: directory.url)) {
      $0 == .readOnly(path: directory.ledgerPath)
    }
    XCTAssertTrue(
      LedgerError.readOnly(path: directory.ledgerPath).description.contains(
        "Make the data directory writable"))
  }

  func testDiskFullRollsBackTheWholeBatch() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    try store.commit([
      .putTransaction(LedgerFixtures.transaction(1)), .setCurrentAccount("old"),
    ])
    let before = try store.load()
    // SQLite's own limit: growing past max_page_count fails with SQLITE_FULL, as a full disk does.
    let pages = try store.connection.integer("PRAGMA page_count")
    XCTAssertEqual(try store.connection.integer("PRAGMA max_page_count = \(pages + 2)"), pages + 2)
    var big = LedgerFixtures.fullyPopulated()
    big.signedTransaction = String(repeating: "x", count: 3_000)
    let batch: [LedgerChange] =
      [.setCurrentAccount("new")]
      + (10..<60).map { id in
        var transaction = big
        transaction.id = .init(UInt64(id))
        return .putTransaction(transaction)
      }
    assertError(try store.commit(batch)) { error in
      guard case .writeFailed(directory.ledgerPath, let reason) = error else { return false }
      return reason.contains("disk is full") && reason.contains("SQLITE_FULL")
    }
    XCTAssertEqual(try store.load(), before)
    XCTAssertEqual(try store.integrityCheck(), "ok")
    _ = try store.connection.integer("PRAGMA max_page_count = 1000000")
    try store.commit(batch)
    XCTAssertEqual(try store.allTransactions().count, 51)
  }

  func testGarbageFileIsReportedAsCorrupt() throws {
    let directory = try TemporaryDirectory()
    var generator = SplitMix(seed: 7)
    let garbage = Data((0..<8_192).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    try garbage.write(to: directory.ledgerURL)
    assertError(try SQLiteLedgerStore(directory: directory.url)) { error in
      guard case .corrupt(directory.ledgerPath, _) = error else { return false }
      return error.description.contains("Move it aside")
    }
    XCTAssertEqual(
      try Data(contentsOf: directory.ledgerURL), garbage, "a damaged file is never rewritten")
  }

  func testTruncatedCopyIsReportedAsCorrupt() throws {
    let directory = try TemporaryDirectory()
    do {
      let store = try SQLiteLedgerStore(directory: directory.url)
      var big = LedgerFixtures.fullyPopulated()
      big.signedTransaction = String(repeating: "s", count: 600)
      try store.commit(
        (1...300).map { id in
          var transaction = big
          transaction.id = .init(UInt64(id))
          return .putTransaction(transaction)
        })
    }
    let full = try Data(contentsOf: directory.ledgerURL)
    XCTAssertGreaterThan(full.count, 100_000, "the ledger was checkpointed into the main file")
    let copy = try TemporaryDirectory()
    try full.prefix(full.count / 2 + 100).write(to: copy.ledgerURL)
    assertError(try SQLiteLedgerStore(directory: copy.url)) { error in
      guard case .corrupt(copy.ledgerPath, _) = error else { return false }
      return true
    }
  }

  func testNewerSchemaIsRefused() throws {
    let directory = try TemporaryDirectory()
    let newer = SQLiteLedgerStore.schemaVersion + 1
    do {
      let store = try SQLiteLedgerStore(directory: directory.url)
      try store.commit([.setCurrentAccount("v")])
      try store.connection.execute("PRAGMA user_version = \(newer)")
    }
    assertError(try SQLiteLedgerStore(directory: directory.url)) {
      $0 == .newerSchema(path: directory.ledgerPath, found: newer, supported: SQLiteLedgerStore.schemaVersion)
    }
    XCTAssertTrue(
      LedgerError.newerSchema(path: directory.ledgerPath, found: 7, supported: 1).description
        .contains("Upgrade storefront"))
    let raw = try SQLiteConnection(path: directory.ledgerPath)
    XCTAssertEqual(try raw.integer("PRAGMA user_version"), Int64(newer), "the newer ledger is left as it was")
  }

  func testAnotherProgramsDatabaseIsRefused() throws {
    let directory = try TemporaryDirectory()
    let raw = try SQLiteConnection(path: directory.ledgerPath)
    try raw.execute("CREATE TABLE notes (body TEXT); PRAGMA user_version = 1;")
    raw.close()
    assertError(try SQLiteLedgerStore(directory: directory.url)) { error in
      guard case .cannotOpen(_, let reason) = error else { return false }
      return reason.contains("not a storefront ledger")
    }
  }

  func testLockHeldLongerThanTheBusyTimeoutGivesBusy() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(
      directory: directory.url, options: .init(busyTimeout: .milliseconds(50)))
    try store.commit([.setCurrentAccount("before")])
    let other = try SQLiteConnection(path: directory.ledgerPath)
    try other.execute("BEGIN EXCLUSIVE; INSERT INTO kv (key, value) VALUES ('other', 'x');")
    let start = ContinuousClock.now
    assertError(try store.commit([.setCurrentAccount("during")])) {
      $0 == .busy(path: directory.ledgerPath)
    }
    XCTAssertLessThan(ContinuousClock.now - start, .seconds(4), "gave up after the busy timeout")
    XCTAssertTrue(LedgerError.busy(path: directory.ledgerPath).description.contains("try again"))
    // Readers are not blocked by the writer in WAL mode, and see only committed data.
    XCTAssertEqual(try store.load().currentAccount, "before")
    try other.execute("ROLLBACK")
    try store.commit([.setCurrentAccount("after")])
    XCTAssertEqual(try store.load().currentAccount, "after")
  }
}
