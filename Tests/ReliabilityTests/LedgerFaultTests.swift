import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Hostile data directories through the real binary: each gives its documented exit code, a message
/// naming the file, and leaves the ledger exactly as it was.
final class LedgerFaultTests: XCTestCase {
  static let buy = "account jake\nset dialogs off\nbuy \(ScenarioGenerator.prefix)coins100\nfinish last\n"

  /// A data directory holding one finished purchase.
  private func preparedDataDir(_ label: String) throws -> URL {
    let dir = try Scratch.directory(self, label)
    let result = try StorefrontProcess.run(["run", "-", "--data-dir", dir.path], input: Data(Self.buy.utf8))
    XCTAssertEqual(result.status, 0, result.stderr)
    return dir
  }

  private func ledger(_ dir: URL) -> URL { dir.appendingPathComponent("ledger.sqlite") }

  /// The ledger's content as the binary reads it, after a checkpoint so the main file is complete.
  private func contents(_ dir: URL) throws -> [String] {
    try LedgerView.read(dir).transactions.map { "\($0.id) \($0.state) \($0.finished)" }
  }

  private func purchase(_ dir: URL) throws -> ProcessResult {
    try StorefrontProcess.run(["run", "-", "--json", "--data-dir", dir.path], input: Data(Self.buy.utf8))
  }

  private func assertFails(
    _ result: ProcessResult, exitCode: Int32, naming path: String, saying words: [String],
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertFalse(result.signalled, "crashed: \(result.stderr)", file: file, line: line)
    XCTAssertEqual(result.status, exitCode, "stderr: \(result.stderr)", file: file, line: line)
    XCTAssertTrue(result.stderr.contains(path), "stderr does not name '\(path)': \(result.stderr)", file: file, line: line)
    for word in words {
      XCTAssertTrue(result.stderr.contains(word), "stderr does not say '\(word)': \(result.stderr)", file: file, line: line)
    }
  }

  private func chattr(_ flag: String, _ paths: [URL]) throws -> Bool {
    try Shell.run("/usr/bin/chattr", [flag] + paths.map(\.path)).status == 0
  }

  func testDataDirectoryThatCannotBeCreated() throws {
    let scratch = try Scratch.directory(self, "missing")
    let blocker = scratch.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: blocker)
    let dataDir = blocker.appendingPathComponent("data")
    let result = try purchase(dataDir)
    assertFails(result, exitCode: 73, naming: dataDir.path, saying: ["could not be created"])
    XCTAssertEqual(result.stdoutData.count, 0, "nothing may be reported when nothing can be stored")
  }

  func testReadOnlyDataDirectoryChangesNothing() throws {
    let dir = try preparedDataDir("readonly")
    let before = try contents(dir)
    let bytes = try Data(contentsOf: ledger(dir))
    // Root ignores mode bits, so the directory and the file are made immutable instead.
    guard try chattr("+i", [dir, ledger(dir)]) else { throw XCTSkip("chattr +i is not supported here") }
    let result = try purchase(dir)
    XCTAssertTrue(try chattr("-i", [dir, ledger(dir)]))
    assertFails(result, exitCode: 73, naming: ledger(dir).path, saying: ["read-only"])
    XCTAssertFalse(result.stdout.contains("\"purchased\"") && result.stdout.contains("\"line\""), "no purchase may be reported")
    XCTAssertEqual(try Data(contentsOf: ledger(dir)), bytes)
    XCTAssertEqual(try contents(dir), before)
  }

  func testNewEmptyDataDirectoryThatIsImmutable() throws {
    let dir = try Scratch.directory(self, "immutable-empty")
    guard try chattr("+i", [dir]) else { throw XCTSkip("chattr +i is not supported here") }
    let result = try purchase(dir)
    XCTAssertTrue(try chattr("-i", [dir]))
    XCTAssertEqual(result.status, 73, result.stderr)
    XCTAssertTrue(result.stderr.contains(dir.path), result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: ledger(dir).path))
  }

  func testCorruptLedgerIsRefusedAndLeftAlone() throws {
    let dir = try Scratch.directory(self, "corrupt")
    var random = SeededGenerator(seed: 99)
    let garbage = Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &random) })
    try garbage.write(to: ledger(dir))
    let result = try purchase(dir)
    assertFails(result, exitCode: 65, naming: ledger(dir).path, saying: ["damaged", "Move it aside"])
    XCTAssertEqual(try Data(contentsOf: ledger(dir)), garbage)
    let listing = try StorefrontProcess.run(["transactions", "--all", "--data-dir", dir.path])
    assertFails(listing, exitCode: 65, naming: ledger(dir).path, saying: ["damaged"])
  }

  func testTruncatedLedgerIsRefusedAndLeftAlone() throws {
    let dir = try preparedDataDir("truncated")
    XCTAssertEqual(try Shell.sqlite(ledger(dir), "PRAGMA wal_checkpoint(TRUNCATE);").hasPrefix("0|"), true)
    let full = try Data(contentsOf: ledger(dir))
    XCTAssertGreaterThan(full.count, 16_384)
    for size in [100, 4096, full.count / 2, full.count - 4096] {
      let cut = full.prefix(size)
      try cut.write(to: ledger(dir))
      for companion in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ledger(dir).path + companion) }
      let result = try purchase(dir)
      assertFails(result, exitCode: 65, naming: ledger(dir).path, saying: ["damaged"])
      XCTAssertEqual(try Data(contentsOf: ledger(dir)), cut, "cut at \(size): the damaged file must not be rewritten")
    }
  }

  func testNewerSchemaIsRefusedAndLeftAlone() throws {
    let dir = try preparedDataDir("newer")
    XCTAssertEqual(try Shell.sqlite(ledger(dir), "PRAGMA user_version = 99; PRAGMA wal_checkpoint(TRUNCATE);").hasPrefix("0|"), true)
    let bytes = try Data(contentsOf: ledger(dir))
    let result = try purchase(dir)
    assertFails(result, exitCode: 65, naming: ledger(dir).path, saying: ["schema version 99", "Upgrade storefront"])
    XCTAssertEqual(try Data(contentsOf: ledger(dir)), bytes)
    XCTAssertEqual(try Shell.sqlite(ledger(dir), "PRAGMA user_version;"), "99")
  }

  func testLedgerLockedByAnotherProcessGivesTempFailAndChangesNothing() throws {
    let dir = try preparedDataDir("locked")
    let before = try contents(dir)
    let holder = try LockHolder(ledger(dir))
    defer { holder.release() }
    let result = try purchase(dir)
    holder.release()
    assertFails(result, exitCode: 75, naming: ledger(dir).path, saying: ["locked by another process"])
    XCTAssertFalse(result.stdout.contains("\"line\":3"), "the purchase on line 3 must not be reported: \(result.stdout)")
    XCTAssertEqual(try contents(dir), before)
    XCTAssertEqual(try LedgerView.integrity(dir), "ok")
  }

  // MARK: Disk full

  /// A small tmpfs mounted for the test (root only), unmounted at teardown.
  private func smallDisk(_ kilobytes: Int) throws -> URL {
    let mountPoint = try Scratch.directory(self, "tmpfs")
    let mount = try Shell.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", mountPoint.path])
    guard mount.status == 0 else { throw XCTSkip("cannot mount a tmpfs here (\(mount.stderr.trimmingCharacters(in: .whitespacesAndNewlines))); needs root") }
    addTeardownBlock { _ = try? Shell.run("/usr/bin/umount", ["-l", mountPoint.path]) }
    return mountPoint
  }

  /// Fills the disk, leaving `free` bytes.
  private func fill(_ disk: URL, leaving free: Int) throws {
    let reserve = disk.appendingPathComponent("reserve")
    try Data(count: free).write(to: reserve)
    let filler = disk.appendingPathComponent("filler")
    _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
    let handle = try FileHandle(forWritingTo: filler)
    let block = Data(count: 65_536)
    var blockSize = block.count
    while blockSize > 0 {
      do { try handle.write(contentsOf: block.prefix(blockSize)) } catch { blockSize /= 2 }
    }
    try handle.close()
    try FileManager.default.removeItem(at: reserve)
  }

  func testDiskFullMidRunStopsWithIOErrorAndLosesNothingReported() throws {
    let disk = try smallDisk(2048)
    var runs = 0
    for free in [16_384, 65_536, 98_304, 131_072, 196_608, 262_144] {
      let dir = disk.appendingPathComponent("data-\(free)")
      let prepared = try StorefrontProcess.run(["run", "-", "--data-dir", dir.path], input: Data(Self.buy.utf8))
      XCTAssertEqual(prepared.status, 0, prepared.stderr)
      try fill(disk, leaving: free)
      var script = "account jake\nset dialogs off\n"
      for _ in 0..<400 { script += "buy \(ScenarioGenerator.prefix)coins100\nfinish last\n" }
      let result = try StorefrontProcess.run(["run", "-", "--json", "--data-dir", dir.path], input: Data(script.utf8))
      try FileManager.default.removeItem(at: disk.appendingPathComponent("filler"))
      XCTAssertFalse(result.signalled, "free \(free): crashed: \(result.stderr)")
      XCTAssertEqual(result.status, 74, "free \(free): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains(ledger(dir).path), "free \(free): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("disk"), "free \(free): the message should say the disk is full: \(result.stderr)")
      let stored = try LedgerView.read(dir)
      for event in result.lines.compactMap(jsonObject) where event["event"] as? String == "transactionUpdated" {
        guard let record = TransactionRecord(json: event) else { continue }
        XCTAssertNotNil(stored.byID[record.id], "free \(free): reported transaction \(record.id) is not in the ledger")
        if record.state == "purchased" { XCTAssertEqual(stored.byID[record.id]?.state, "purchased") }
      }
      XCTAssertEqual(try LedgerView.integrity(dir), "ok", "free \(free)")
      runs += 1
      try FileManager.default.removeItem(at: dir)
    }
    print("Disk full: \(runs) runs on a 2 MB tmpfs with 16-256 KB free")
  }
}

/// Another process holding an exclusive SQLite lock on a ledger until released.
final class LockHolder {
  private let process = Process()
  private let input = Pipe()
  private var released = false

  /// Starts `python3` holding `BEGIN EXCLUSIVE` and returns once it says the lock is held.
  init(_ file: URL) throws {
    ChildProcess.ignoreSIGPIPE()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      """
      import sqlite3, sys
      c = sqlite3.connect(sys.argv[1], isolation_level=None)
      c.execute('BEGIN EXCLUSIVE')
      c.execute("INSERT INTO kv (key, value) VALUES ('lock-holder', 'x')")
      print('locked', flush=True)
      sys.stdin.read()
      c.execute('ROLLBACK')
      """,
      file.path,
    ]
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let line = output.fileHandleForReading.availableData
    guard String(decoding: line, as: UTF8.self).contains("locked") else {
      release()
      throw Failure("the lock holder did not take the lock")
    }
  }

  func release() {
    guard !released else { return }
    released = true
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}
