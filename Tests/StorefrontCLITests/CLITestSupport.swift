import Foundation
import StorefrontCLI
import XCTest

/// Runs the CLI in-process and captures what it writes.
struct CLIRun {
  var code: Int32
  var output: String
  var errorOutput: String

  init(_ arguments: [String], environment: [String: String] = ["HOME": "/home/tester"]) {
    let console = CapturedConsole()
    code = StorefrontCLI.main(arguments, environment: environment, io: console)
    output = console.output
    errorOutput = console.errorOutput
  }
}

enum CLIFiles {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func fixture(_ name: String) -> String {
    packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name).path
  }

  static var sharedSamples: URL {
    packageRoot.deletingLastPathComponent().appendingPathComponent("shared/storekit-samples")
  }

  /// A fresh temporary directory, removed when the test ends.
  static func temporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
  }
}
