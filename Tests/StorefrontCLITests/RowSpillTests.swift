import XCTest

@testable import StorefrontCLI

/// The listing's spill file gives back every row as written, whatever its cells hold, across
/// more than one buffer, and leaves no file behind.
final class RowSpillTests: XCTestCase {
  func testRowsComeBackAsWrittenAcrossBuffersAndNoFileIsLeft() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spill-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let spill = try XCTUnwrap(RowSpill(directory: directory.path))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "unlinked at once")
    // Cells a separator-based file would mangle, and enough rows for several 64 KB buffers.
    let odd = ["", "a\nb", "tab\there", "\u{0}\u{1F}", "漢字 ✓", String(repeating: "x", count: 70_000)]
    var written: [[String]] = []
    for index in 0..<5_000 {
      let row = [String(index), odd[index % odd.count], index % 7 == 0 ? "" : "yes"]
      try spill.append(row)
      written.append(row)
    }
    XCTAssertEqual(spill.count, written.count)
    var read: [[String]] = []
    try spill.forEach { read.append($0) }
    XCTAssertEqual(read, written)
  }

  func testAnUnwritableDirectoryGivesNoSpill() {
    XCTAssertNil(RowSpill(directory: "/nonexistent-\(UUID().uuidString)"))
  }
}
