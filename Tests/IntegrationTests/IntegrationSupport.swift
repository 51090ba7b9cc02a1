import Foundation
import StorefrontProcessTestSupport
import XCTest

extension TemporaryDirectory {
  /// A fresh temporary directory for one test, removed when the test ends.
  init(_ test: XCTestCase) throws {
    try self.init(label: "integ")
    let directory = self
    test.addTeardownBlock { directory.remove() }
  }
}

extension AppleVerifier {
  /// Apple's library in the venv the tests create. Skips only when pip cannot install it (PyPI
  /// unreachable); without python3-venv, which scripts/setup installs, the test fails.
  static func preparedOrSkipped() throws -> AppleVerifier {
    do {
      return try prepare()
    } catch let unavailable as Unavailable where unavailable.reason == .packagesNotInstalled {
      throw XCTSkip(unavailable.description)
    }
  }
}

extension StorefrontBinary {
  /// Runs `storefront arguments` to completion in `directory` (its working directory and HOME,
  /// nothing inherited but PATH); one still running after `timeout` seconds is killed and fails the test.
  static func run(
    _ arguments: [String], stdin: Data? = nil, in directory: TemporaryDirectory, timeout: TimeInterval = 60,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> ProcessResult {
    try isolated(in: directory.url, timeout: timeout, reportTimeout: failTest)
      .run(arguments, stdin: stdin ?? Data(), file: file, line: line)
  }

  /// Starts `storefront arguments` in `directory` without waiting, so several can run at once.
  static func start(_ arguments: [String], stdin: Data? = nil, in directory: TemporaryDirectory) throws -> RunningProcess {
    try isolated(in: directory.url, reportTimeout: failTest).start(arguments, stdin: stdin ?? Data())
  }

  private static let failTest: RunningProcess.TimeoutReporter = { message, file, line in
    XCTFail(message, file: file, line: line)
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

  /// The options an example runs with: `--catalog` with the catalog beside it of the same name
  /// (`14-bundles.storekit`), if it has one; the built-in catalog otherwise.
  static func options(for example: URL) -> [String] {
    let catalog = example.deletingPathExtension().appendingPathExtension("storekit")
    return FileManager.default.fileExists(atPath: catalog.path) ? ["--catalog", catalog.path] : []
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
