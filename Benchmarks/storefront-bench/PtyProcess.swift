import Foundation

/// A child process on a fresh pseudo-terminal of a given size, as a user's terminal would run it.
///
/// The child is a session leader whose controlling terminal is the pty's slave (stdin, stdout and
/// stderr); the parent reads everything it draws from the master and can type into it. Timings are
/// taken from just before `posix_spawn`.
final class PtyProcess {
  let pid: pid_t
  private let master: Int32
  private let started: UInt64
  /// Every byte the child wrote so far.
  private(set) var output: [UInt8] = []
  /// True once the slave side closed (the child and its descendants exited).
  private(set) var reachedEOF = false
  private var reaped: (status: Int32, maxRSSKilobytes: Int)?

  /// Starts `executable` with `arguments` on a `columns`×`rows` pty, with exactly `environment`.
  init(executable: String, arguments: [String], environment: [String: String], columns: Int, rows: Int) throws {
    var masterFD: Int32 = -1
    var slaveFD: Int32 = -1
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&masterFD, &slaveFD, nil, nil, &size) == 0 else {
      throw BenchError.failed("openpty failed: \(String(cString: strerror(errno)))")
    }
    defer { close(slaveFD) }
    guard let name = ttyname(slaveFD).map({ String(cString: $0) }) else {
      close(masterFD)
      throw BenchError.failed("ttyname of the pty slave failed")
    }
    _ = fcntl(masterFD, F_SETFD, FD_CLOEXEC)

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addclose(&actions, slaveFD)
    // Opened after setsid (glibc applies SETSID before file actions), so it becomes the controlling tty.
    posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Self.spawnSetSID)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    started = Stopwatch.nanoseconds()
    let code = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    guard code == 0 else {
      close(masterFD)
      throw BenchError.failed("could not start \(executable): \(String(cString: strerror(code)))")
    }
    pid = child
    master = masterFD
  }

  /// glibc's `POSIX_SPAWN_SETSID` (≥ 2.26); the macro is behind `_GNU_SOURCE`, so Swift does not see it.
  private static let spawnSetSID: Int16 = 0x80

  deinit {
    stop(grace: 0)
    close(master)
  }

  /// Makes sure the child is gone and reaped: waits up to `grace` seconds for it to exit (reading
  /// its output meanwhile, so it never blocks on a full pty), then kills its whole process group
  /// (it is a session leader, so that includes anything it started) and reaps it.
  func stop(grace: Double = 2) {
    guard reaped == nil else { return }
    let deadline = Stopwatch.nanoseconds() + UInt64(grace * 1e9)
    while Stopwatch.nanoseconds() < deadline && !hasExited {
      _ = read(timeout: 0.01) { _ in false }
    }
    // The child is alive or a zombie (not reaped yet), so its pid, and so its group id, is still
    // ours: nothing unrelated can be hit. The group kill also ends stragglers it started.
    kill(-pid, SIGKILL)
    kill(pid, SIGKILL)
    _ = try? waitForExit()
  }

  /// Whether the child has exited, without reaping it (`WNOWAIT`).
  private var hasExited: Bool {
    var info = siginfo_t()
    return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
  }

  /// Milliseconds since the spawn.
  var elapsedMilliseconds: Double { Double(Stopwatch.nanoseconds() - started) / 1e6 }

  /// Reads until `done(output)` holds (returns the milliseconds since spawn at that moment), or
  /// until EOF or `timeout` seconds (returns nil).
  func read(timeout: Double, until done: ([UInt8]) -> Bool) -> Double? {
    let deadline = Stopwatch.nanoseconds() + UInt64(timeout * 1e9)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      if done(output) { return elapsedMilliseconds }
      if reachedEOF { return nil }
      let now = Stopwatch.nanoseconds()
      guard now < deadline else { return nil }
      var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(max(1, (deadline - now) / 1_000_000)))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { continue }
      let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
      if count > 0 {
        output.append(contentsOf: buffer[0..<count])
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        reachedEOF = true  // EIO: every slave descriptor closed
      }
    }
  }

  /// Reads everything until the child closes the terminal; nil on timeout.
  func readToEnd(timeout: Double) -> Double? {
    _ = read(timeout: timeout) { _ in false }
    return reachedEOF ? elapsedMilliseconds : nil
  }

  /// Types `bytes` into the terminal.
  func send(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { _ = Glibc.write(master, $0.baseAddress, $0.count) }
  }

  /// Waits for the child and returns its exit status and its own peak resident set (`wait4`).
  @discardableResult
  func waitForExit() throws -> (status: Int32, maxRSSKilobytes: Int) {
    if let reaped { return reaped }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchError.failed("wait4(\(pid)) failed: \(String(cString: strerror(errno)))") }
    }
    let result = (Self.exitStatus(status), usage.ru_maxrss)
    reaped = result
    return result
  }

  /// The exit code, or 128 + the signal. WIFEXITED/WEXITSTATUS are macros; the encoding is Linux's.
  private static func exitStatus(_ status: Int32) -> Int32 {
    status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }

  /// Waits for the first byte after `mark`, then reads until `quiet` seconds pass with no byte.
  /// Returns when the first and the last byte of that burst arrived (milliseconds since spawn),
  /// or nil if nothing arrived within `timeout` seconds.
  func readBurst(after mark: Int, timeout: Double, quiet: Double) -> (first: Double, last: Double)? {
    guard let first = read(timeout: timeout, until: { $0.count > mark }) else { return nil }
    var last = first
    while !reachedEOF {
      let count = output.count
      _ = read(timeout: quiet) { $0.count > count }
      guard output.count > count else { break }
      last = elapsedMilliseconds
    }
    return (first, last)
  }

  /// Reads and discards output until `quiet` seconds pass with no byte (or `timeout` seconds).
  func drain(quiet: Double, timeout: Double) {
    let deadline = Stopwatch.nanoseconds() + UInt64(timeout * 1e9)
    while !reachedEOF && Stopwatch.nanoseconds() < deadline {
      let count = output.count
      _ = read(timeout: quiet) { $0.count > count }
      if output.count == count { return }
    }
  }

  /// `output` as text, for error messages.
  var outputText: String { String(decoding: output, as: UTF8.self) }
}

extension Array where Element == UInt8 {
  /// The offset of the first occurrence of `needle`, or nil.
  func firstRange(of needle: [UInt8], from start: Int = 0) -> Range<Int>? {
    guard !needle.isEmpty, count >= needle.count else { return nil }
    var index = start
    while index <= count - needle.count {
      if self[index] == needle[0] && self[index..<index + needle.count].elementsEqual(needle) {
        return index..<index + needle.count
      }
      index += 1
    }
    return nil
  }
}
