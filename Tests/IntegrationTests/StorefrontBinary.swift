import Foundation
import XCTest

/// The `storefront` executable that `swift test` built next to the test bundle, run as a real process.
enum StorefrontBinary {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Where the binary is: beside the test bundle (Linux: the bundle's directory is the build
  /// products directory; macOS: the `.xctest` bundle sits in it).
  static func url() throws -> URL {
    let bundle = Bundle.main.bundleURL
    let candidates = [
      bundle.appendingPathComponent("storefront"),
      bundle.deletingLastPathComponent().appendingPathComponent("storefront"),
      packageRoot.appendingPathComponent(".build/debug/storefront"),
    ]
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    throw BinaryMissing(searched: candidates.map(\.path))
  }

  struct BinaryMissing: Error, CustomStringConvertible {
    var searched: [String]
    var description: String {
      "The storefront executable was not built beside the tests; looked in \(searched.joined(separator: ", ")). Run `swift build` first."
    }
  }

  /// Runs `storefront arguments` to completion (at most `timeout` seconds).
  static func run(
    _ arguments: [String], stdin: Data? = nil, in directory: TestDirectory, timeout: TimeInterval = 60,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> ProcessResult {
    try start(arguments, stdin: stdin, in: directory).wait(timeout: timeout, file: file, line: line)
  }

  /// Starts `storefront arguments` without waiting, so several can run at once.
  static func start(_ arguments: [String], stdin: Data? = nil, in directory: TestDirectory) throws -> RunningProcess {
    try RunningProcess(executable: url(), arguments: arguments, stdin: stdin, in: directory)
  }
}

/// What a finished process did.
struct ProcessResult {
  var arguments: [String]
  var status: Int32
  var stdout: String
  var stderr: String

  /// Standard output split into lines, without the empty one after the final newline.
  var lines: [String] {
    stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast(stdout.hasSuffix("\n") ? 1 : 0).map(String.init)
  }

  var summary: String {
    "storefront \(arguments.joined(separator: " ")) exited \(status)\nstderr:\n\(stderr)"
  }
}

/// A started process whose output goes to files (never a pipe that could fill up and block it).
final class RunningProcess {
  let arguments: [String]
  private let process = Process()
  private let exited = DispatchSemaphore(value: 0)
  private let outURL: URL
  private let errURL: URL

  init(executable: URL, arguments: [String], stdin: Data?, in directory: TestDirectory) throws {
    self.arguments = arguments
    let name = UUID().uuidString
    outURL = directory.url.appendingPathComponent("\(name).stdout")
    errURL = directory.url.appendingPathComponent("\(name).stderr")
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory.url
    // A controlled environment: no inherited STOREFRONT_DATA_DIR or XDG_DATA_HOME can leak in.
    process.environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": directory.url.path,
      "NO_COLOR": "1",
    ]
    process.standardOutput = try OutputFile.create(outURL)
    process.standardError = try OutputFile.create(errURL)
    if let stdin {
      let inURL = directory.url.appendingPathComponent("\(name).stdin")
      try stdin.write(to: inURL)
      process.standardInput = try FileHandle(forReadingFrom: inURL)
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    let exited = self.exited
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
  }

  /// Waits for the exit, at most `timeout` seconds; a process still running then is terminated and fails the test.
  func wait(timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) throws -> ProcessResult {
    if exited.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      if exited.wait(timeout: .now() + 10) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        _ = exited.wait(timeout: .now() + 10)
      }
      XCTFail("storefront \(arguments.joined(separator: " ")) did not exit within \(timeout) s", file: file, line: line)
    }
    process.waitUntilExit()
    return ProcessResult(
      arguments: arguments, status: process.terminationStatus,
      stdout: try String(contentsOf: outURL, encoding: .utf8), stderr: try String(contentsOf: errURL, encoding: .utf8))
  }
}

/// A new, empty file for a child process's output.
enum OutputFile {
  static func create(_ url: URL) throws -> FileHandle {
    try Data().write(to: url)
    return try FileHandle(forWritingTo: url)
  }
}
