import Foundation
import StoreEngine
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
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    env["SWIFT_BACKTRACE"] = "enable=no"
    for (key, value) in environment { env[key] = value }
    let child = try Spawned(binary.path, arguments, environment: env)
    let pid = child.pid

    let errorCollector = Collector()
    let errorDone = DispatchSemaphore(value: 0)
    let errorFD = child.stderr
    DispatchQueue.global().async {
      errorCollector.append(Spawned.readAll(errorFD))
      errorDone.signal()
    }
    let inputFD = child.stdin
    DispatchQueue.global().async {
      // EPIPE when the process has exited; SIGPIPE is ignored (see `Spawned`).
      input.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
          let written = write(inputFD, base + offset, buffer.count - offset)
          if written <= 0 { break }
          offset += written
        }
      }
      close(inputFD)
    }
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)

    var output = Data()
    var pending = Data()
    var killed = false
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(child.stdout, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      if killed { continue }
      var bytes = Data(buffer[0..<count])
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
    close(child.stdout)
    let (status, signalled) = child.wait()
    watchdog.cancel()
    errorDone.wait()
    close(errorFD)
    return ProcessResult(
      status: status, signalled: signalled, output: output,
      errorOutput: String(decoding: errorCollector.data, as: UTF8.self))
  }
}

/// A child process started with `posix_spawn` (Foundation's `Process` costs ~40 ms a launch here,
/// which the crash test pays hundreds of times), with pipes for its three standard streams.
struct Spawned {
  private static let spawnLock = NSLock()
  let pid: pid_t
  /// Our ends: write to `stdin`, read `stdout` and `stderr`.
  let stdin: Int32
  let stdout: Int32
  let stderr: Int32

  init(_ path: String, _ arguments: [String], environment: [String: String]) throws {
    _ = StorefrontProcess.ignoreSIGPIPE
    // Pipes are made close-on-exec under a lock, so that a child spawned by another thread at the
    // same moment never inherits (and holds open) this child's pipes.
    Self.spawnLock.lock()
    defer { Self.spawnLock.unlock() }
    var pipes: [[Int32]] = []
    for _ in 0..<3 {
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else { throw Failure("pipe failed: \(errno)") }
      for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      pipes.append(fds)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
    posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, path, &actions, nil, argv, envp)
    close(pipes[0][0])
    close(pipes[1][1])
    close(pipes[2][1])
    guard code == 0 else {
      close(pipes[0][1])
      close(pipes[1][0])
      close(pipes[2][0])
      throw Failure("cannot start \(path): \(String(cString: strerror(code)))")
    }
    self.pid = pid
    stdin = pipes[0][1]
    stdout = pipes[1][0]
    stderr = pipes[2][0]
  }

  /// Waits for the child; the exit status, or the signal number with `signalled` true.
  func wait() -> (status: Int32, signalled: Bool) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7F
    return signal == 0 ? ((status >> 8) & 0xFF, false) : (signal, true)
  }

  static func readAll(_ fd: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      data.append(contentsOf: buffer[0..<count])
    }
    return data
  }
}

/// Bytes gathered on another thread.
final class Collector: Sendable {
  private let storage = Locked(Data())
  func append(_ data: Data) { storage.withLock { $0.append(data) } }
  var data: Data { storage.withLock { $0 } }
}

/// Temporary directories removed when the test ends.
enum Scratch {
  /// `/dev/shm` when it is a writable tmpfs: SIGKILL leaves the page cache intact, so durability
  /// against a killed process is the same there, and the ledger's fsyncs cost nothing.
  static let memoryBacked: URL? = {
    let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
    guard mounts.contains(" /dev/shm tmpfs "), access("/dev/shm", W_OK) == 0 else { return nil }
    return URL(fileURLWithPath: "/dev/shm", isDirectory: true)
  }()

  static func directory(_ test: XCTestCase, _ label: String = "rel", inMemory: Bool = false) throws -> URL {
    let base = inMemory ? (memoryBacked ?? FileManager.default.temporaryDirectory) : FileManager.default.temporaryDirectory
    let url = base.appendingPathComponent("storefront-\(label)-\(UUID().uuidString)")
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
    let child = try Spawned(executable, arguments, environment: ProcessInfo.processInfo.environment)
    let errorCollector = Collector()
    let done = DispatchSemaphore(value: 0)
    let errorFD = child.stderr
    DispatchQueue.global().async {
      errorCollector.append(Spawned.readAll(errorFD))
      done.signal()
    }
    if let input {
      let bytes = Array(input.utf8)
      _ = bytes.withUnsafeBytes { write(child.stdin, $0.baseAddress, $0.count) }
    }
    close(child.stdin)
    let out = Spawned.readAll(child.stdout)
    close(child.stdout)
    let (status, _) = child.wait()
    done.wait()
    close(errorFD)
    return Output(
      status: status, output: String(decoding: out, as: UTF8.self),
      errorOutput: String(decoding: errorCollector.data, as: UTF8.self))
  }

  /// `sqlite3 FILE SQL`: the CLI's output, trimmed.
  static func sqlite(_ file: URL, _ sql: String) throws -> String {
    let result = try run("/usr/bin/sqlite3", [file.path, sql])
    return (result.output + result.errorOutput).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
