import Foundation
import StoreTUI
import Testing

@Suite struct SnapshotAssertionTests {
  static func sample() -> ScreenBuffer {
    var buffer = ScreenBuffer(size: Size(width: 8, height: 2))
    buffer.write("광고 ok", x: 0, y: 0)
    return buffer
  }

  @Test func differenceNamesTheFirstDifferingLine() {
    #expect(snapshotDifference(actual: "a\nb", expected: "a\nb") == nil)
    let message = snapshotDifference(actual: "a\nb\nc", expected: "a\nx\nc")
    #expect(message?.hasPrefix("Screen differs at line 2: got 'b', expected 'x'.") == true)
    let shorter = snapshotDifference(actual: "a", expected: "a\nb")
    #expect(shorter?.contains("line 2: got (no line), expected 'b'") == true)
  }

  @Test func missingSnapshotIsRecordedAndFails() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("snapshots-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    withKnownIssue("recording a new baseline fails the test") {
      assertScreen(Self.sample(), named: "sample", directory: folder, record: false)
    }
    let recorded = try String(
      contentsOf: folder.appendingPathComponent("sample.txt"), encoding: .utf8)
    #expect(recorded == "광고 ok\n\n")
    // Now it exists and matches: no issue.
    assertScreen(Self.sample(), named: "sample", directory: folder, record: false)
    // A different screen fails against it.
    withKnownIssue("a changed screen does not match") {
      assertScreen(
        ScreenBuffer(size: Size(width: 8, height: 2)), named: "sample", directory: folder,
        record: false)
    }
    // Forced recording overwrites and fails again.
    withKnownIssue("re-recording fails the test") {
      assertScreen(
        ScreenBuffer(size: Size(width: 8, height: 1)), named: "sample", directory: folder,
        record: true)
    }
    #expect(
      try String(contentsOf: folder.appendingPathComponent("sample.txt"), encoding: .utf8) == "\n")
  }
}
