import Foundation
import XCTest

/// A private tmux server with one bash pane, for driving the real `storefront` binary.
///
/// The server runs in the foreground as a child we never wait on: a tmux client that spawns the
/// server itself leaves Foundation's `waitUntilExit` hanging.
final class TmuxSession {
  let socket = "sf-e2e-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
  let dataDirectory: URL
  private let server = Process()

  static var tmuxPath: String? {
    ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// The `storefront` binary built next to the test bundle.
  static var binary: URL {
    var directory = Bundle.main.bundleURL
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent("storefront")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL.appendingPathComponent("storefront")
  }

  init(width: Int = 110, height: Int = 32) throws {
    guard let tmuxPath = Self.tmuxPath else { throw XCTSkip("tmux is not installed (apt-get install tmux)") }
    dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("sf-e2e-\(UUID().uuidString)")
    server.executableURL = URL(fileURLWithPath: tmuxPath)
    server.arguments = ["-L", socket, "-f", "/dev/null", "-D"]
    server.standardInput = FileHandle.nullDevice
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    try server.run()
    let socketPath = "\(ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp")/tmux-\(getuid())/\(socket)"
    try waitUntil("the tmux server starts", timeout: 10) { FileManager.default.fileExists(atPath: socketPath) }
    _ = try tmux([
      "new-session", "-d", "-s", "e2e", "-x", String(width), "-y", String(height), "-e", "LANG=C.UTF-8",
      "-e", "SWIFT_BACKTRACE=interactive=no", "-e", "TERM=tmux-256color", "bash --norc --noprofile",
    ])
    try waitUntil("the shell prompt", timeout: 10) { try self.screen().contains("$") || self.screen().contains("#") }
  }

  deinit {
    _ = try? tmux(["kill-server"])
    if server.isRunning { server.terminate() }
    server.waitUntilExit()
    try? FileManager.default.removeItem(at: dataDirectory)
  }

  /// Runs a tmux client command against this server and returns its output.
  @discardableResult
  func tmux(_ arguments: [String]) throws -> String {
    guard let tmux = Self.tmuxPath else { throw XCTSkip("tmux is not installed") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tmux)
    process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw TmuxError.failed(arguments, process.terminationStatus) }
    return String(decoding: data, as: UTF8.self)
  }

  enum TmuxError: Error { case failed([String], Int32) }

  /// The pane's text.
  func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", "e2e"]) }

  /// Types keys (tmux key names such as `Enter`, `Tab`, `Down`, `Escape`, or literal text).
  func send(_ keys: String...) throws { try tmux(["send-keys", "-t", "e2e"] + keys) }

  /// Types `text` literally.
  func type(_ text: String) throws { try tmux(["send-keys", "-t", "e2e", "-l", text]) }

  /// Starts `storefront ARGS` in the pane; afterwards the pane prints the exit code and the tty modes.
  func launch(_ arguments: String = "") throws {
    let command = "clear; \(Self.binary.path) --data-dir \(dataDirectory.path) \(arguments); echo EXIT=$?; "
      + "stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo MODES"
    try tmux(["send-keys", "-t", "e2e", "-l", command])
    try send("Enter")
  }

  func resize(width: Int, height: Int) throws {
    try tmux(["resize-window", "-t", "e2e", "-x", String(width), "-y", String(height)])
  }

  /// The pid of the storefront process running in the pane.
  func storefrontPID() throws -> pid_t? {
    let pane = try tmux(["display", "-p", "-t", "e2e", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    let children = try String(contentsOfFile: "/proc/\(pane)/task/\(pane)/children", encoding: .utf8)
    return children.split(separator: " ").compactMap { pid_t($0) }.first
  }

  /// Polls the screen until `text` appears, failing with the last screen after `timeout` seconds.
  func waitFor(_ text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws {
    try waitUntil("'\(text)' on screen", timeout: timeout, file: file, line: line) { try self.screen().contains(text) }
  }

  func waitUntil(
    _ what: String, timeout: TimeInterval, file: StaticString = #filePath, line: UInt = #line,
    _ condition: () throws -> Bool
  ) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if (try? condition()) == true { return }
      usleep(50_000)
    }
    let last = (try? screen()) ?? "<no screen>"
    XCTFail("Timed out after \(timeout) s waiting for \(what). Last screen:\n\(last)", file: file, line: line)
    throw TmuxError.failed(["wait", what], -1)
  }

  /// Runs the storefront binary headless (e.g. `transactions --json`) on the same data directory.
  func storefront(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = arguments + ["--data-dir", dataDirectory.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// The ledger's transactions, as JSON objects.
  func ledger() throws -> [[String: Any]] {
    try storefront(["transactions", "--all", "--json"]).output.split(separator: "\n").compactMap {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }
}
