import Foundation

/// A child started with `posix_spawn`, with a pipe for each of its three standard streams, as
/// the leader of a new process group (so a kill reaches anything it started too) and with SIGPIPE
/// back to its default action (this process ignores it).
///
/// Not Foundation's `Process`: it costs about 40 ms a launch here, which the crash test pays
/// hundreds of times, and it cannot be killed at an exact point of its output.
struct SpawnedChild: Sendable {
  /// Held while pipes are made and a child is spawned, so that a child spawned by another thread at
  /// the same moment never inherits (and holds open) this child's pipes.
  private static let spawnLock = NSLock()

  let pid: pid_t
  /// Our ends: write to `stdin`, read `stdout` and `stderr`.
  let stdin: Int32
  let stdout: Int32
  let stderr: Int32

  init(executable: String, arguments: [String], environment: [String: String], workingDirectory: String?) throws {
    ChildProcess.ignoreSIGPIPE()
    Self.spawnLock.lock()
    defer { Self.spawnLock.unlock() }
    var pipes: [[Int32]] = []
    func closeAll() { for fd in pipes.joined() { close(fd) } }
    for _ in 0..<3 {
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else {
        let code = errno
        closeAll()
        throw ProcessError.cannotStart(executable: executable, reason: "pipe failed: \(String(cString: strerror(code)))")
      }
      for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      pipes.append(fds)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
    posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
    if let workingDirectory, let problem = Self.addChangeDirectory(&actions, workingDirectory) {
      closeAll()
      throw ProcessError.cannotStart(executable: executable, reason: problem)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    close(pipes[0][0])
    close(pipes[1][1])
    close(pipes[2][1])
    guard code == 0 else {
      close(pipes[0][1])
      close(pipes[1][0])
      close(pipes[2][0])
      throw ProcessError.cannotStart(executable: executable, reason: String(cString: strerror(code)))
    }
    self.pid = pid
    stdin = pipes[0][1]
    stdout = pipes[1][0]
    stderr = pipes[2][0]
  }

  /// Adds a `chdir` to the spawn's file actions with `posix_spawn_file_actions_addchdir_np`
  /// (glibc 2.29+, macOS 10.15+). glibc declares it only under `_GNU_SOURCE`, which Swift's Glibc
  /// module does not define, so it is looked up at run time. Returns what went wrong, if anything.
  private static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) -> String? {
    typealias AddChangeDirectory = @convention(c) (
      UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
    ) -> Int32
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
      return "this C library has no posix_spawn_file_actions_addchdir_np, so the working directory \(path) cannot be set"
    }
    let add = unsafeBitCast(symbol, to: AddChangeDirectory.self)
    let code = path.withCString { add(&actions, $0) }
    return code == 0 ? nil : "cannot change to \(path): \(String(cString: strerror(code)))"
  }

  /// Blocks until the child has exited, without reaping it: until ``reap()``, its pid stays taken
  /// (a zombie), so a `kill` sent before then cannot reach another process that reused the pid.
  func awaitExit() {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
  }

  /// Reaps the exited child: its exit status, or its signal number with `signalled` true.
  func reap() -> (status: Int32, signalled: Bool) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return (-1, false) }
    }
    let signal = status & 0x7F
    return signal == 0 ? ((status >> 8) & 0xFF, false) : (signal, true)
  }

  /// Everything readable from `fd` until end of file.
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

  /// Writes `data` to `fd`, stopping early when the reader has gone (EPIPE; SIGPIPE is ignored).
  static func writeAll(_ fd: Int32, _ data: Data) {
    data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = write(fd, base + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { break }
        offset += written
      }
    }
  }
}
