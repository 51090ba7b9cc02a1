import Foundation

/// A started child process. Its standard input is written, and its output collected, by threads of
/// its own, so a full pipe never blocks it; several can run at once.
///
/// No sleeping: ``wait(timeout:file:line:)`` blocks on a semaphore with a deadline and kills the
/// process with SIGKILL when it passes.
public final class RunningProcess: Sendable {
  /// How long a process killed with SIGKILL, and its output pipes, may take to go away.
  static let grace: TimeInterval = 10

  /// Receives a sentence about a process that had to be killed at its timeout, with the source
  /// location of the call that waited for it (a test target passes `XCTFail` or `Issue.record`).
  public typealias TimeoutReporter = @Sendable (_ message: String, _ file: StaticString, _ line: UInt) -> Void

  private struct State {
    var stdout = Data()
    var stderr = Data()
    /// Set once the child has exited (it may not be reaped yet); no signal is sent after that.
    var hasExited = false
    var exit: (status: Int32, signalled: Bool)?
    var timedOut = false
  }

  /// The program's file name (`storefront`).
  public let executableName: String
  /// The arguments, without the program itself.
  public let arguments: [String]
  /// The child's process id.
  public let processIdentifier: pid_t
  private let child: SpawnedChild
  private let state = Guarded(State())
  private let exited = DispatchSemaphore(value: 0)
  private let drained = DispatchGroup()
  private let reportTimeout: TimeoutReporter?

  /// Starts `executable arguments…`. With `collectsStdout` false the caller reads
  /// ``stdoutDescriptor`` itself (and closes it).
  init(
    executable: String, arguments: [String], stdin: Data, environment: [String: String], workingDirectory: URL?,
    collectsStdout: Bool = true, reportTimeout: TimeoutReporter?
  ) throws {
    let child = try SpawnedChild(
      executable: executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory?.path)
    self.child = child
    self.executableName = URL(fileURLWithPath: executable).lastPathComponent
    self.arguments = arguments
    self.processIdentifier = child.pid
    self.reportTimeout = reportTimeout
    let state = self.state
    let exited = self.exited
    let drained = self.drained

    if stdin.isEmpty {
      close(child.stdin)
    } else {
      Thread.detachNewThread {
        SpawnedChild.writeAll(child.stdin, stdin)
        close(child.stdin)
      }
    }
    drained.enter()
    Thread.detachNewThread {
      let data = SpawnedChild.readAll(child.stderr)
      close(child.stderr)
      state.withLock { $0.stderr = data }
      drained.leave()
    }
    if collectsStdout {
      drained.enter()
      Thread.detachNewThread {
        let data = SpawnedChild.readAll(child.stdout)
        close(child.stdout)
        state.withLock { $0.stdout = data }
        drained.leave()
      }
    }
    Thread.detachNewThread {
      child.awaitExit()
      state.withLock { $0.hasExited = true }
      let exit = child.reap()
      state.withLock { $0.exit = exit }
      exited.signal()
    }
  }

  /// The file descriptor of the child's standard output, for a caller that reads it itself.
  var stdoutDescriptor: Int32 { child.stdout }

  /// Sends SIGKILL to the process and its process group (anything it started), unless it has
  /// already exited; `timedOut` marks the result.
  func sendKill(timedOut: Bool) {
    let pid = child.pid
    state.withLock { state in
      guard !state.hasExited else { return }
      _ = kill(-pid, SIGKILL)
      if timedOut { state.timedOut = true }
    }
  }

  /// Waits for the process to exit, at most `timeout` seconds from now; a process still running
  /// then is killed with SIGKILL, reported to the ``TimeoutReporter`` (with `file` and `line`), and
  /// its result has ``ProcessResult/timedOut`` set. Throws only when it does not go away even then.
  public func wait(timeout: TimeInterval, file: StaticString = #filePath, line: UInt = #line) throws -> ProcessResult {
    try wait(timeout: timeout, stdout: nil, limit: timeout, file: file, line: line)
  }

  /// ``wait(timeout:file:line:)`` with standard output given by a caller that read it itself;
  /// `limit` is the whole time the process was given, for the timeout message.
  func wait(
    timeout: TimeInterval, stdout: Data?, limit: TimeInterval, file: StaticString, line: UInt
  ) throws -> ProcessResult {
    if exited.wait(timeout: .now() + max(0, timeout)) == .timedOut {
      sendKill(timedOut: true)
      guard exited.wait(timeout: .now() + Self.grace) == .success else {
        throw ProcessError.didNotFinish(command: command, seconds: limit + Self.grace)
      }
    }
    exited.signal()  // a later wait returns at once
    guard drained.wait(timeout: .now() + Self.grace) == .success else {
      throw ProcessError.didNotFinish(command: command, seconds: limit + Self.grace)
    }
    let result = state.withLock { state in
      ProcessResult(
        executableName: executableName, arguments: arguments, status: state.exit?.status ?? -1,
        signalled: state.exit?.signalled ?? false, timedOut: state.timedOut, stdoutData: stdout ?? state.stdout,
        stderr: String(decoding: state.stderr, as: UTF8.self))
    }
    if result.timedOut {
      reportTimeout?("\(command) did not exit within \(limit) s and was killed", file, line)
    }
    return result
  }

  private var command: String { ([executableName] + arguments).joined(separator: " ") }
}
