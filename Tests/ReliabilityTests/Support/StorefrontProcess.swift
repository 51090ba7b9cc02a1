import Foundation
import XCTest

/// The finished run of one `storefront` process.
struct ProcessResult {
  var status: Int32
  /// True when the process ended by a signal (`status` is then the signal number).
  var signalled: Bool
  var output: Data
  var errorOutput: String

  var outputText: String { String(decoding: output, as: UTF8.self) }
  var lines: [String] { outputText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

/// Runs the real `storefront` binary (built by `swift build`, which `swift test` does first because
/// the test target depends on the executable).
enum StorefrontProcess {
  /// Where the binary is: `STOREFRONT_BINARY`, else next to the test bundle, else `.build/debug`.
  static let binary: URL = {
    if let path = ProcessInfo.processInfo.environment["STOREFRONT_BINARY"] {
      return URL(fileURLWithPath: path)
    }
    var candidates: [URL] = []
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("storefront"))
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("storefront"))
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("storefront"))
    candidates.append(packageRoot.appendingPathComponent(".build/debug/storefront"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[candidates.count - 1]
  }()

  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A process may not take longer than this; the watchdog kills it and the test fails.
  static let timeout: TimeInterval = 60

  /// Keeps a write to a process that died early from killing the test runner with SIGPIPE.
  static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// Runs `storefront arguments...` to completion with `input` on standard input.
  static func run(
    _ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> ProcessResult {
    try stream(arguments, input: input, environment: environment) { _, _ in false }
  }

  /// Runs `storefront`, handing each complete stdout line (and the byte count so far) to `onLine`;
  /// when it returns true, the process is killed with SIGKILL at once.
  ///
  /// No sleeping: the reader blocks on the pipe; a watchdog kills a process that hangs.
  static func stream(
    _ arguments: [String], input: Data, environment: [String: String] = [:],
    killAfterBytes: Int? = nil, onLine: (String, Int) -> Bool
  ) throws -> ProcessResult {
    _ = ignoreSIGPIPE
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    env["SWIFT_BACKTRACE"] = "enable=no"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let pid = process.processIdentifier

    let errorCollector = Collector()
    let errorDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      errorCollector.append(stderr.fileHandleForReading.readDataToEndOfFile())
      errorDone.signal()
    }
    let inputHandle = stdin.fileHandleForWriting
    DispatchQueue.global().async {
      // EPIPE when the process has exited; SIGPIPE is ignored above.
      input.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
          let written = write(inputHandle.fileDescriptor, base + offset, buffer.count - offset)
          if written <= 0 { break }
          offset += written
        }
      }
      try? inputHandle.close()
    }
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)

    var output = Data()
    var pending = Data()
    var killed = false
    let reader = stdout.fileHandleForReading
    while true {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      if killed { continue }
      var bytes = chunk
      var limitReached = false
      if let limit = killAfterBytes, output.count + bytes.count >= limit {
        bytes = bytes.prefix(limit - output.count)
        limitReached = true
      }
      output.append(bytes)
      pending.append(bytes)
      while !killed, let newline = pending.firstIndex(of: 0x0A) {
        let lineData = pending[pending.startIndex..<newline]
        pending = Data(pending[pending.index(after: newline)...])
        if onLine(String(decoding: lineData, as: UTF8.self), output.count - pending.count) {
          killed = true
        }
      }
      if limitReached { killed = true }
      if killed {
        kill(pid, SIGKILL)
        // Keep only complete lines the test has seen; the rest of the pipe is drained and dropped.
        output = Data(output.prefix(output.count - pending.count))
      }
    }
    process.waitUntilExit()
    watchdog.cancel()
    errorDone.wait()
    let signalled = process.terminationReason == .uncaughtSignal
    return ProcessResult(
      status: process.terminationStatus, signalled: signalled, output: output,
      errorOutput: String(decoding: errorCollector.data, as: UTF8.self))
  }
}

/// Bytes gathered on another thread.
final class Collector: @unchecked Sendable {
  private let lock = NSLock()
  private var storage = Data()
  func append(_ data: Data) { lock.withLock { storage.append(data) } }
  var data: Data { lock.withLock { storage } }
}

/// Temporary directories removed when the test ends.
enum Scratch {
  static func directory(_ test: XCTestCase, _ label: String = "rel") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    chmod(url.path, 0o700)
    test.addTeardownBlock {
      // An immutable file (chattr +i) would make the removal fail; clear the flag first.
      _ = try? Shell.run("/usr/bin/chattr", ["-R", "-i", url.path])
      try? FileManager.default.removeItem(at: url)
    }
    return url
  }
}

/// Small helper for other programs (sqlite3, chattr, mount).
enum Shell {
  struct Output {
    var status: Int32
    var output: String
    var errorOutput: String
  }

  static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> Output {
    _ = StorefrontProcess.ignoreSIGPIPE
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdout = Pipe()
    let stderr = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    try process.run()
    let errorCollector = Collector()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      errorCollector.append(stderr.fileHandleForReading.readDataToEndOfFile())
      done.signal()
    }
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try? stdin.fileHandleForWriting.close()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    done.wait()
    return Output(
      status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
      errorOutput: String(decoding: errorCollector.data, as: UTF8.self))
  }

  /// `sqlite3 FILE SQL`: the CLI's output, trimmed.
  static func sqlite(_ file: URL, _ sql: String) throws -> String {
    let result = try run("/usr/bin/sqlite3", [file.path, sql])
    return (result.output + result.errorOutput).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
