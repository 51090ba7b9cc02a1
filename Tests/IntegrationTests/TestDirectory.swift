import Foundation
import XCTest

/// A fresh temporary directory for one test, removed when the test ends.
struct TestDirectory {
  let url: URL

  init(_ test: XCTestCase) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-integ-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let url = self.url
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
  }

  var path: String { url.path }

  /// A path inside the directory (not created).
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `text` to `name` inside the directory and returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let file = url.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return file.path
  }
}

/// The checked-in example scenarios.
enum ExampleScenarios {
  static let directory = StorefrontBinary.packageRoot.appendingPathComponent("Examples")

  static func all() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "scenario" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  static func named(_ prefix: String) throws -> URL {
    guard let url = try all().first(where: { $0.lastPathComponent.hasPrefix(prefix) }) else {
      throw MissingExample(prefix: prefix)
    }
    return url
  }

  struct MissingExample: Error, CustomStringConvertible {
    var prefix: String
    var description: String { "No example scenario starting with '\(prefix)' in \(ExampleScenarios.directory.path)" }
  }
}
