import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// File-system work of the sandbox CA: a private directory and key files no one else can read.
enum CAFiles {
  static let directoryMode: mode_t = 0o700
  static let keyMode: mode_t = 0o600
  static let certificateMode: mode_t = 0o644

  /// Creates `directory` with mode 0700, or tightens an existing one that others can read.
  static func prepareDirectory(_ directory: URL) throws {
    let path = directory.path
    var info = stat()
    // stat, not lstat: a symlinked data directory is the user's choice.
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else { throw SandboxCAError.notADirectory(path: path) }
      try tighten(path, current: info.st_mode, to: directoryMode)
      return
    }
    // The parent is the data directory, private too (Docs/DataAndFiles.md), as the ledger creates it.
    let parent = directory.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(
        at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(directoryMode)])
    } catch {
      throw SandboxCAError.fileSystem(path: parent.path, detail: error.localizedDescription)
    }
    guard mkdir(path, directoryMode) == 0 || errno == EEXIST else {
      throw SandboxCAError.fileSystem(path: path, detail: String(cString: strerror(errno)))
    }
    // mkdir's mode is filtered by the umask; set it exactly.
    guard chmod(path, directoryMode) == 0 else {
      throw SandboxCAError.fileSystem(path: path, detail: String(cString: strerror(errno)))
    }
  }

  /// Runs `body` holding an exclusive `flock` on `directory/.lock`.
  static func withLock<Result>(in directory: URL, _ body: () throws -> Result) throws -> Result {
    let path = directory.appendingPathComponent(".lock").path
    let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, keyMode)
    guard descriptor >= 0 else {
      throw SandboxCAError.fileSystem(path: path, detail: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX) == 0 else {
      throw SandboxCAError.fileSystem(path: path, detail: String(cString: strerror(errno)))
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  static func exists(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0
  }

  static func read(_ url: URL) throws -> Data {
    do {
      return try Data(contentsOf: url)
    } catch {
      throw SandboxCAError.corrupt(file: url.path, reason: "it cannot be read (\(error.localizedDescription))")
    }
  }

  /// Sets a key file to 0600 if it is looser.
  static func tightenKeyPermissions(_ url: URL) throws {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return }
    try tighten(url.path, current: info.st_mode, to: keyMode)
  }

  /// Writes every file under a temporary name first, then renames them into place, so a failure
  /// half-way leaves either the old set or temporary files, never a mix of old and new names.
  static func writeAll(_ files: [(String, Data)], in directory: URL, keyFiles: Set<String>) throws {
    var staged: [(temporary: String, final: String)] = []
    defer { for file in staged { unlink(file.temporary) } }
    for (name, contents) in files {
      let final = directory.appendingPathComponent(name).path
      let temporary = final + ".new"
      staged.append((temporary, final))
      try write(contents, to: temporary, mode: keyFiles.contains(name) ? keyMode : certificateMode)
    }
    for file in staged {
      guard rename(file.temporary, file.final) == 0 else {
        throw SandboxCAError.fileSystem(path: file.final, detail: String(cString: strerror(errno)))
      }
    }
  }

  /// Creates `path` with `mode` from the start (no window in which a key is world-readable).
  private static func write(_ contents: Data, to path: String, mode: mode_t) throws {
    unlink(path)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw SandboxCAError.fileSystem(path: path, detail: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    guard fchmod(descriptor, mode) == 0 else {
      throw SandboxCAError.fileSystem(path: path, detail: String(cString: strerror(errno)))
    }
    try contents.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count, let base = raw.baseAddress {
        let written = Glibc.write(descriptor, base + offset, raw.count - offset)
        guard written > 0 else {
          throw SandboxCAError.fileSystem(path: path, detail: String(cString: strerror(errno)))
        }
        offset += written
      }
    }
    guard fsync(descriptor) == 0 else {
      throw SandboxCAError.fileSystem(path: path, detail: String(cString: strerror(errno)))
    }
  }

  private static func tighten(_ path: String, current: mode_t, to mode: mode_t) throws {
    let permissions = current & 0o777
    guard permissions & ~mode != 0 else { return }
    guard chmod(path, permissions & mode) == 0 else {
      throw SandboxCAError.insecurePermissions(path: path, mode: String(permissions, radix: 8))
    }
  }
}
