import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh directory under the system temp directory, removed (after undoing `chattr +i` and
/// read-only modes the test set) when the test ends.
final class TemporaryDirectory {
  let url: URL
  private var immutablePaths: [String] = []

  init(_ name: String = "ledger") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sqlite-ledger-tests-\(UUID().uuidString)")
      .appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }

  deinit {
    for path in immutablePaths { _ = Self.chattr("-i", path) }
    let root = url.deletingLastPathComponent()
    _ = chmod(url.path, 0o700)
    try? FileManager.default.removeItem(at: root)
  }

  var ledgerURL: URL { url.appendingPathComponent("ledger.sqlite") }
  var ledgerPath: String { ledgerURL.path }

  static var isRoot: Bool { geteuid() == 0 }

  /// The permission bits of `path`.
  static func mode(_ path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o777
  }

  /// Makes `path` unwritable even for root (`chattr +i`), or skips the test when the file system or
  /// the privileges don't allow it.
  func makeImmutable(_ path: String) throws {
    guard Self.chattr("+i", path) else {
      throw XCTSkip("chattr +i is not available here, and as root chmod does not stop writes")
    }
    immutablePaths.append(path)
  }

  func makeMutable(_ path: String) {
    _ = Self.chattr("-i", path)
    immutablePaths.removeAll { $0 == path }
  }

  /// Makes `path` unwritable: chmod for ordinary users; `chattr +i` for root, whom chmod does not stop.
  func makeUnwritable(_ path: String, mode: mode_t) throws {
    if Self.isRoot {
      try makeImmutable(path)
    } else {
      XCTAssertEqual(chmod(path, mode), 0)
    }
  }

  private static func chattr(_ flag: String, _ path: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = [flag, path]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return false
    }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
