import Foundation

/// Runs programs as child processes with their standard streams on pipes, every wait bounded by a
/// timeout (after which the child is killed with SIGKILL); nothing sleeps.
public enum ChildProcess {
  /// How long a child may run unless told otherwise.
  public static let defaultTimeout: TimeInterval = 60

  private static let sigpipeIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  /// Ignores SIGPIPE in this process, so that writing to a child that died early fails with EPIPE
  /// instead of killing the test runner. Spawning does this; call it before writing to a pipe of
  /// a child started some other way.
  public static func ignoreSIGPIPE() { sigpipeIgnored }

  /// Runs `executable arguments…` to completion with `stdin` on standard input.
  ///
  /// - Parameters:
  ///   - executable: the program's path (no `PATH` search; use `/usr/bin/env` for that).
  ///   - environment: the whole environment; `nil` passes this process's own.
  ///   - workingDirectory: where the child starts; `nil` keeps this process's.
  ///   - timeout: seconds until the child is killed with SIGKILL (``ProcessResult/timedOut``).
  ///   - reportTimeout: told when that happens, with `file` and `line`.
  public static func run(
    _ executable: String, _ arguments: [String], stdin: Data = Data(), environment: [String: String]? = nil,
    workingDirectory: URL? = nil, timeout: TimeInterval = defaultTimeout,
    reportTimeout: RunningProcess.TimeoutReporter? = nil, file: StaticString = #filePath, line: UInt = #line
  ) throws -> ProcessResult {
    try start(
      executable, arguments, stdin: stdin, environment: environment, workingDirectory: workingDirectory,
      reportTimeout: reportTimeout
    ).wait(timeout: timeout, file: file, line: line)
  }

  /// Starts `executable arguments…` without waiting, so several can run at once; call
  /// ``RunningProcess/wait(timeout:file:line:)`` for the result.
  public static func start(
    _ executable: String, _ arguments: [String], stdin: Data = Data(), environment: [String: String]? = nil,
    workingDirectory: URL? = nil, reportTimeout: RunningProcess.TimeoutReporter? = nil
  ) throws -> RunningProcess {
    try RunningProcess(
      executable: executable, arguments: arguments, stdin: stdin,
      environment: environment ?? ProcessInfo.processInfo.environment, workingDirectory: workingDirectory,
      reportTimeout: reportTimeout)
  }

  /// Runs `executable arguments…`, handing each complete line of standard output (and the number
  /// of output bytes up to its end) to `onLine` on the calling thread. When `onLine` returns true,
  /// or when `killAfterBytes` bytes have arrived, the child is killed with SIGKILL at once; the
  /// result then holds only the complete lines read until then, and ``ProcessResult/signalled``.
  ///
  /// No sleeping: the caller blocks reading the pipe, and a watchdog kills a child still running
  /// after `timeout` seconds.
  public static func stream(
    _ executable: String, _ arguments: [String], stdin: Data = Data(), environment: [String: String]? = nil,
    workingDirectory: URL? = nil, timeout: TimeInterval = defaultTimeout, killAfterBytes: Int? = nil,
    reportTimeout: RunningProcess.TimeoutReporter? = nil, file: StaticString = #filePath, line: UInt = #line,
    onLine: (String, Int) -> Bool
  ) throws -> ProcessResult {
    let process = try RunningProcess(
      executable: executable, arguments: arguments, stdin: stdin,
      environment: environment ?? ProcessInfo.processInfo.environment, workingDirectory: workingDirectory,
      collectsStdout: false, reportTimeout: reportTimeout)
    let deadline = Date().addingTimeInterval(timeout)
    let watchdog = DispatchWorkItem { process.sendKill(timedOut: true) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }

    let fd = process.stdoutDescriptor
    var output = Data()
    var pending = Data()
    var killed = false
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      if killed { continue }
      var bytes = Data(buffer[0..<count])
      var limitReached = false
      if let limit = killAfterBytes, output.count + bytes.count >= limit {
        bytes = bytes.prefix(max(0, limit - output.count))
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
        process.sendKill(timedOut: false)
        // Keep only the complete lines the caller has seen; the rest of the pipe is drained and dropped.
        output = Data(output.prefix(output.count - pending.count))
      }
    }
    close(fd)
    return try process.wait(
      timeout: deadline.timeIntervalSinceNow, stdout: output, limit: timeout, file: file, line: line)
  }
}
