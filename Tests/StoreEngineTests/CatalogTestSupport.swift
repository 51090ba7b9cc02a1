import Foundation
import XCTest

@testable import StoreEngine

/// Paths and helpers shared by the catalog tests.
enum CatalogTestFiles {
  /// The package root, found from this file's location.
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func fixture(_ name: String) -> URL {
    packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name)
  }

  /// `../shared/storekit-samples` next to the package, when present.
  static var sharedSamples: URL {
    packageRoot.deletingLastPathComponent().appendingPathComponent("shared/storekit-samples")
  }

  static func loadFixture(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Catalog {
    let url = fixture(name)
    do {
      return try CatalogLoader.load(path: url.path)
    } catch {
      XCTFail("\(name) failed to load:\n\(error)", file: file, line: line)
      throw error
    }
  }

  /// The issues from decoding `text`, or a failure when it decodes.
  static func issues(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [CatalogIssue] {
    issues(Data(text.utf8), file: file, line: line)
  }

  static func issues(_ data: Data, file: StaticString = #filePath, line: UInt = #line) -> [CatalogIssue] {
    do {
      _ = try CatalogDecoder().decode(data, path: "test.storekit")
      XCTFail("expected issues, but the catalog decoded", file: file, line: line)
      return []
    } catch {
      guard case .issues(let issues) = error else {
        XCTFail("expected issues, got \(error)", file: file, line: line)
        return []
      }
      return issues
    }
  }
}
