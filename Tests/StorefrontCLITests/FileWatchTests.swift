import Foundation
import StoreEngine
import StorefrontLive
import XCTest

/// The catalog file's watch (issue 35): a write, an atomic replace or a removal of the file wakes
/// it; another file in the same directory does not.
final class FileWatchTests: XCTestCase {
  func testAWriteAReplaceAndARemovalOfTheFileWakeItAndOtherFilesDoNot() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let file = directory.appendingPathComponent("Store.storekit")
    try Data("{}".utf8).write(to: file)
    let wakes = Locked(0)
    let woke = DispatchSemaphore(value: 0)
    let watch = try XCTUnwrap(FileWatch(path: file.path) {
      wakes.withLock { $0 += 1 }
      woke.signal()
    })
    defer { watch.stop() }

    /// Blocks on the watch's own signal (bounded at 5 s), not on a polling sleep.
    func waitForWake(after count: Int, _ what: String) {
      let deadline = DispatchTime.now() + 5
      while wakes.withLock({ $0 }) <= count, woke.wait(timeout: deadline) == .success {}
      XCTAssertGreaterThan(wakes.withLock { $0 }, count, what)
    }
    // Another file first: the write of the watched file after it is the only wake.
    try Data("x".utf8).write(to: directory.appendingPathComponent("Other.storekit"))
    try Data("{ }".utf8).write(to: file)
    waitForWake(after: 0, "a write in place")
    XCTAssertEqual(wakes.withLock { $0 }, 1, "the other file woke it")
    var count = wakes.withLock { $0 }
    try Data("{  }".utf8).write(to: file, options: .atomic)
    waitForWake(after: count, "an atomic replace")
    count = wakes.withLock { $0 }
    try FileManager.default.removeItem(at: file)
    waitForWake(after: count, "a removal")
  }
}
