import Foundation
import XCTest

/// Every declaration the lists in `declarations/` name is tagged in a surface file of this target
/// (which compiles, so each is present with Apple's signature), and every tag names a listed one:
/// what `scripts/surface-count --strict` checks, as a test CI runs.
final class SurfaceCountTests: XCTestCase {
  func testEveryListedDeclarationIsNamedWithApplesSignature() throws {
    // Resolved: the example package reaches this directory through a link.
    let directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
    let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
    var tags: Set<String> = []
    for file in files where file.pathExtension == "swift" {
      for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("// decl: ") { tags.insert(String(text.dropFirst("// decl: ".count)).trimmingCharacters(in: .whitespaces)) }
      }
    }
    let lists = try FileManager.default.contentsOfDirectory(
      at: directory.appendingPathComponent("declarations"), includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "txt" }
    XCTAssertGreaterThanOrEqual(lists.count, 2, "the StoreKit 1 and StoreKitTest lists at least")
    var listed: Set<String> = []
    for list in lists {
      let keys = try String(contentsOf: list, encoding: .utf8).split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
      XCTAssertFalse(keys.isEmpty, "\(list.lastPathComponent) lists nothing")
      let missing = keys.filter { !tags.contains($0) }
      XCTAssertEqual(missing, [], "\(list.lastPathComponent): declared by Apple, not named here")
      listed.formUnion(keys)
    }
    XCTAssertEqual(tags.subtracting(listed).sorted(), [], "tagged but not in any list")
  }
}
