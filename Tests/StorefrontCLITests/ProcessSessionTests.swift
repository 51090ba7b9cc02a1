import Foundation
import XCTest

import StoreEngine

/// The CLI's session ids and liveness, against the real `/proc` and against a fake `/proc` tree.
final class ProcessSessionTests: XCTestCase {
  private func statLine(pid: Int32, command: String, state: String, startTime: String) -> String {
    // Fields 4 to 21 are zeros here; field 22 is the start time.
    "\(pid) (\(command)) \(state) " + Array(repeating: "0", count: 18).joined(separator: " ") + " \(startTime) 1 2 3\n"
  }

  /// A fake `/proc` with one process and a boot id.
  private func fakeProc(pid: Int32, state: String, startTime: String, boot: String = "boot-1") throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: root) }
    let process = root.appendingPathComponent("\(pid)")
    let random = root.appendingPathComponent("sys/kernel/random")
    try FileManager.default.createDirectory(at: process, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: random, withIntermediateDirectories: true)
    try statLine(pid: pid, command: "store front) (x", state: state, startTime: startTime)
      .write(to: process.appendingPathComponent("stat"), atomically: true, encoding: .utf8)
    try "\(boot)\n".write(to: random.appendingPathComponent("boot_id"), atomically: true, encoding: .utf8)
    return root
  }

  func testThisProcessIsAliveAndItsIDHasPidStartTimeAndBoot() throws {
    let session = ProcessSession().current()
    let parsed = try XCTUnwrap(ProcessSession.parse(session.id), session.id)
    XCTAssertEqual(parsed.pid, ProcessInfo.processInfo.processIdentifier)
    XCTAssertFalse(parsed.startTime.isEmpty, session.id)
    XCTAssertFalse(parsed.boot.isEmpty, session.id)
    XCTAssertTrue(session.isAlive(session.id))
    XCTAssertEqual(ProcessSession().current().id, session.id, "stable for the life of the process")
  }

  func testSamePidWithAnotherStartTimeIsAReusedPidSoDead() throws {
    let ours = try XCTUnwrap(ProcessSession.parse(ProcessSession().current().id))
    let reused = "\(ours.pid):\((UInt64(ours.startTime) ?? 0) + 1)@\(ours.boot)"
    XCTAssertFalse(ProcessSession().isAlive(reused))
  }

  func testProcessThatExitedIsDead() throws {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/cat")
    let input = Pipe()
    child.standardInput = input
    child.standardOutput = FileHandle.nullDevice
    try child.run()
    let id = ProcessSession().id(of: child.processIdentifier)
    XCTAssertTrue(ProcessSession().isAlive(id), id)
    try input.fileHandleForWriting.close()
    child.waitUntilExit()
    XCTAssertFalse(ProcessSession().isAlive(id), id)
  }

  func testFakeProcStatesStartTimesAndBoots() throws {
    let running = try fakeProc(pid: 4242, state: "S", startTime: "987654")
    let probe = ProcessSession(procRoot: running.path)
    XCTAssertEqual(probe.id(of: 4242), "4242:987654@boot-1", "the command name's parentheses do not shift fields")
    XCTAssertTrue(probe.isAlive("4242:987654@boot-1"))
    XCTAssertFalse(probe.isAlive("4242:987655@boot-1"), "another start time: the pid was reused")
    XCTAssertFalse(probe.isAlive("4242:987654@boot-0"), "a session of an earlier boot")
    XCTAssertFalse(probe.isAlive("4243:987654@boot-1"), "no such process")
    let zombie = try fakeProc(pid: 4242, state: "Z", startTime: "987654")
    XCTAssertFalse(ProcessSession(procRoot: zombie.path).isAlive("4242:987654@boot-1"), "killed, not yet reaped")
  }

  func testIDsThatDoNotParseAreDead() {
    for id in ["", "garbage", "0:1@b", "-1:1@b", "12:34", "x:1@b"] {
      XCTAssertNil(ProcessSession.parse(id), id)
      XCTAssertFalse(ProcessSession().isAlive(id), id)
    }
  }

  func testStatLinesTooShortOrMalformedAreRejected() {
    XCTAssertNil(ProcessSession.parseStat("12 (x) S 1 2 3"))
    XCTAssertNil(ProcessSession.parseStat("no parenthesis at all"))
    XCTAssertEqual(ProcessSession.parseStat(statLine(pid: 1, command: "a b", state: "R", startTime: "77"))?.startTime, "77")
  }
}
