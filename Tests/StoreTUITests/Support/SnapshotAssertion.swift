import Foundation
import StoreTUI
import Testing

/// Compares texts line by line; `nil` when equal, else a message naming the first difference.
func snapshotDifference(actual: String, expected: String) -> String? {
  guard actual != expected else { return nil }
  let actualLines = actual.components(separatedBy: "\n")
  let expectedLines = expected.components(separatedBy: "\n")
  let line =
    zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    ?? min(actualLines.count, expectedLines.count)
  let got = line < actualLines.count ? "'\(actualLines[line])'" : "(no line)"
  let want = line < expectedLines.count ? "'\(expectedLines[line])'" : "(no line)"
  return """
    Screen differs at line \(line + 1): got \(got), expected \(want).
    --- actual ---
    \(actual)
    --- expected ---
    \(expected)
    """
}

/// Asserts `buffer.plainText` equals a multi-line literal.
func assertScreen(
  _ buffer: ScreenBuffer, equals expected: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  if let difference = snapshotDifference(actual: buffer.plainText, expected: expected) {
    Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
  }
}

/// Asserts `buffer.plainText` equals `__Snapshots__/<name>.txt` next to the calling test file.
///
/// When the file is missing, or `RECORD_SNAPSHOTS=1` is set, writes it and **fails** saying so,
/// so a new baseline never passes silently: review the file, then re-run.
func assertScreen(
  _ buffer: ScreenBuffer, named name: String, directory: URL? = nil,
  record: Bool = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1",
  filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) {
  let folder =
    directory
    ?? URL(fileURLWithPath: filePath).deletingLastPathComponent()
    .appendingPathComponent("__Snapshots__")
  let file = folder.appendingPathComponent("\(name).txt")
  let actual = buffer.plainText + "\n"
  let existing = try? String(contentsOf: file, encoding: .utf8)
  if record || existing == nil {
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try actual.write(to: file, atomically: true, encoding: .utf8)
      Issue.record(
        "Recorded snapshot \(file.path); check it and re-run without RECORD_SNAPSHOTS.",
        sourceLocation: sourceLocation)
    } catch {
      Issue.record(
        "Could not record snapshot \(file.path): \(error)", sourceLocation: sourceLocation)
    }
    return
  }
  if let existing, let difference = snapshotDifference(actual: actual, expected: existing) {
    Issue.record(
      Comment(
        rawValue: "Snapshot \(file.lastPathComponent): \(difference)\n"
          + "Re-record with RECORD_SNAPSHOTS=1 if the change is intended."),
      sourceLocation: sourceLocation)
  }
}
