import Foundation
import StorefrontProcessTestSupport
import XCTest

/// The real `storefront` binary (`STOREFRONT_BINARY`, else the one `swift test` built next to the
/// tests) with the runner's environment plus `NO_COLOR=1` and `SWIFT_BACKTRACE=enable=no`. A
/// process still running after 60 s is killed (and its result is then `signalled`).
enum StorefrontProcess {
  static let binary = Result { try StorefrontBinary.inheritingEnvironment(timeout: 60) }

  static var packageRoot: URL { StorefrontBinary.packageRoot }

  /// Runs `storefront arguments...` to completion with `input` on standard input.
  static func run(_ arguments: [String], input: Data = Data(), environment: [String: String] = [:]) throws -> ProcessResult {
    try binary.get().run(arguments, stdin: input, environment: environment)
  }

  /// Runs `storefront`, handing each complete stdout line (and the byte count so far) to `onLine`;
  /// when it returns true, or after `killAfterBytes` bytes, the process is killed with SIGKILL at once.
  static func stream(
    _ arguments: [String], input: Data, environment: [String: String] = [:],
    killAfterBytes: Int? = nil, onLine: (String, Int) -> Bool
  ) throws -> ProcessResult {
    try binary.get().stream(arguments, stdin: input, environment: environment, killAfterBytes: killAfterBytes, onLine: onLine)
  }
}

/// Temporary directories removed when the test ends.
enum Scratch {
  /// With `inMemory`, in `/dev/shm` when it is a writable tmpfs (see `TemporaryDirectory.memoryBacked`).
  static func directory(_ test: XCTestCase, _ label: String = "rel", inMemory: Bool = false) throws -> URL {
    let directory = try TemporaryDirectory(label: label, inMemory: inMemory)
    test.addTeardownBlock { directory.remove() }
    return directory.url
  }
}

/// Other programs (sqlite3, chattr, mount).
enum Shell {
  static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
    try ChildProcess.run(executable, arguments, stdin: Data((input ?? "").utf8))
  }

  /// `sqlite3 FILE SQL`: the CLI's output, trimmed.
  static func sqlite(_ file: URL, _ sql: String) throws -> String {
    let result = try run("/usr/bin/sqlite3", [file.path, sql])
    return (result.stdout + result.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
