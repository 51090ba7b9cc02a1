import Foundation
import StoreEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File-system steps around the database: creating the directory and file privately, and making
/// existing ones private again when other users can read them.
enum LedgerFileAccess {
  /// Creates `directory` (and missing parents) with mode 0700 when it does not exist.
  static func createDirectory(_ directory: String, ledgerPath: String) throws(LedgerError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw .cannotOpen(path: ledgerPath, reason: "'\(directory)' is a file, not a directory")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
      )
    } catch {
      let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
      if code == Int(EACCES) || code == Int(EPERM) || code == Int(EROFS) {
        throw .readOnly(path: ledgerPath)
      }
      throw .cannotOpen(
        path: ledgerPath,
        reason: "the data directory '\(directory)' does not exist and could not be created")
    }
  }

  /// Creates the database file with mode 0600 when missing, so it is never readable by others, not
  /// even between SQLite creating it and a later chmod. SQLite gives `-wal` and `-shm` the same mode.
  static func createFile(_ path: String) throws(LedgerError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if fd >= 0 {
      close(fd)
      return
    }
    let code = errno
    switch code {
    case EEXIST: return
    case ENOENT:
      throw .cannotOpen(
        path: path,
        reason:
          "the directory '\(directoryName(of: path))' does not exist; create it or pass another --data-dir"
      )
    case EACCES, EPERM, EROFS: throw .readOnly(path: path)
    case ENOSPC, EDQUOT:
      throw .writeFailed(path: path, reason: "the disk is full; free some space and try again")
    default:
      throw .cannotOpen(path: path, reason: String(cString: strerror(code)))
    }
  }

  /// Throws ``LedgerError/readOnly(path:)`` when the directory of `path` can't take new files: WAL
  /// mode creates `-wal` and `-shm` next to the database, so an existing ledger in a read-only
  /// directory can't be opened for writing either (SQLite would only say "unable to open").
  static func checkDirectoryWritable(of path: String) throws(LedgerError) {
    let directory = directoryName(of: path)
    guard access(directory.isEmpty ? "." : directory, W_OK) != 0 else { return }
    let code = errno
    if code == EACCES || code == EPERM || code == EROFS { throw .readOnly(path: path) }
  }

  /// Makes `path` private (`mode`, 0700 or 0600) when group or others have any access.
  ///
  /// - Returns: A warning to show the user when the mode was changed; nil when it was already private
  ///   or the file does not exist.
  /// - Throws: ``LedgerError/cannotOpen(path:reason:)`` when the mode could not be fixed.
  static func makePrivate(_ path: String, mode: mode_t, kind: String, ledgerPath: String)
    throws(LedgerError)
    -> String?
  {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let current = info.st_mode & 0o777
    guard current & 0o077 != 0 else { return nil }
    guard chmod(path, mode) == 0 else {
      let reason = String(cString: strerror(errno))
      throw .cannotOpen(
        path: ledgerPath,
        reason:
          "the \(kind) '\(path)' is readable by other users (mode \(octal(current))) and could not "
          + "be made private (\(reason)); run chmod \(octal(mode)) on it")
    }
    return "The \(kind) '\(path)' was readable by other users (mode \(octal(current))); "
      + "changed it to \(octal(mode))."
  }

  static func directoryName(of path: String) -> String {
    (path as NSString).deletingLastPathComponent
  }

  private static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
