import Foundation
import StorefrontProcessTestSupport
import XCTest

/// The interactive `storefront` in a terminal on one of ``NetworkHosts``' client hosts: a private
/// tmux server started inside the host's namespace, so the storefront in its pane reaches the
/// database only over that host's link. The test drives it with tmux client commands over the
/// server's Unix socket, which network namespaces do not separate (and no link cut touches). `-D`
/// keeps the server in the foreground and turns `exit-empty` off, so it lasts until ``stop()``.
///
/// The pane runs the storefront itself (`exec`, no shell in between), so ``storefrontPID`` is the
/// process to SIGKILL; the pane stays after it exits (`remain-on-exit`), so its last screen can
/// still be read. ``stop()`` (also on deinit) ends the tmux server and everything in it.
final class HostTerminal {
  static let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

  let socket = "sf-host-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
  private let tmux: String
  private let environment: [String: String]
  private let server: RunningProcess
  private var socketPath: String { "\(environment["TMUX_TMPDIR"] ?? "/tmp")/tmux-\(getuid())/\(socket)" }
  private var stopped = false

  /// A tmux server in `namespace` with one pane running `executable arguments…` with exactly
  /// `environment` (plus the terminal's `TERM` and `LANG`).
  init(namespace: String, executable: String, arguments: [String], environment: [String: String], width: Int = 110, height: Int = 32)
    throws
  {
    guard let tmux = Self.tmuxPath else {
      let reason = "tmux is not installed (Debian: tmux; run scripts/setup)"
      // Like the namespaces: CI must run these tests, not skip them.
      if ProcessInfo.processInfo.environment["CI"] == "true" { throw Failure(description: reason) }
      throw XCTSkip(reason)
    }
    self.tmux = tmux
    self.environment = environment
    // In the foreground (-D): a server that daemonizes would keep the client's output pipes open.
    server = try ChildProcess.start(
      NetworkHosts.ip, ["netns", "exec", namespace, tmux, "-L", socket, "-f", "/dev/null", "-D"], environment: environment)
    let socketPath = socketPath
    try waitUntil("the tmux server in \(namespace) listens", timeout: 10) { FileManager.default.fileExists(atPath: socketPath) }
    // Before the session: a storefront that exits at once still leaves its screen to read.
    try command(["set-option", "-g", "remain-on-exit", "on"])
    let line = (["exec", executable] + arguments).map(Self.quoted).joined(separator: " ")
    try command([
      "new-session", "-d", "-s", "host", "-x", String(width), "-y", String(height), "-e", "LANG=C.UTF-8", "-e", "TERM=tmux-256color",
      "-e", "SWIFT_BACKTRACE=enable=no", line,
    ])
  }

  deinit { stop() }

  /// Ends the tmux server (and the pane's process, if it still runs); safe to call twice.
  func stop() {
    guard !stopped else { return }
    stopped = true
    _ = try? command(["kill-server"])
    if (try? server.wait(timeout: 10)) == nil { kill(server.processIdentifier, SIGKILL) }
    // The server leaves its socket file behind when it ends.
    try? FileManager.default.removeItem(atPath: socketPath)
  }

  /// Runs a tmux client command against this server and returns its output.
  @discardableResult
  func command(_ arguments: [String]) throws -> String {
    let result = try ChildProcess.run(tmux, ["-L", socket, "-f", "/dev/null"] + arguments, environment: environment, timeout: 30)
    guard result.status == 0 else {
      throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
    return result.stdout
  }

  /// A tmux command that failed, or a screen that never showed what was waited for.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The pane's text.
  func screen() throws -> String { try command(["capture-pane", "-p", "-t", "host"]) }

  /// Types keys (tmux key names such as `Enter`, `Down`, `Escape`, or literal text).
  func send(_ keys: String...) throws { try command(["send-keys", "-t", "host"] + keys) }

  /// The storefront's process id (the pane's process).
  func storefrontPID() throws -> pid_t {
    let text = try command(["display", "-p", "-t", "host", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let pid = pid_t(text), pid > 0 else { throw Failure(description: "tmux reported no pane process: '\(text)'") }
    return pid
  }

  /// Whether the pane's process has exited.
  func hasExited() throws -> Bool {
    try command(["display", "-p", "-t", "host", "#{pane_dead}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
  }

  /// Polls the screen until `text` appears; throws with the last screen after `timeout` seconds.
  func waitFor(_ text: String, timeout: TimeInterval = 30) throws {
    try waitUntil("'\(text)' on screen", timeout: timeout) { try self.screen().contains(text) }
  }

  /// Polls `condition` every 50 ms for at most `timeout` seconds; throws with the last screen.
  func waitUntil(_ what: String, timeout: TimeInterval, _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while ContinuousClock.now < deadline {
      if (try? condition()) == true { return }
      _ = poll(nil, 0, 50)
    }
    if (try? condition()) == true { return }
    let last = (try? screen()) ?? "<no screen>"
    throw Failure(description: "timed out after \(timeout) s waiting for \(what); last screen:\n\(last)")
  }

  /// `text` as one shell word.
  private static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
