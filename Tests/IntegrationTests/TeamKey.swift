import Foundation
import StorefrontProcessTestSupport

/// A team's key-encryption key for tests on a shared ledger: a file (0600) of 64 hex digits that
/// every "machine" passes as `--key-file`.
enum TeamKey {
  static let hex = String(repeating: "5eed", count: 16)

  /// Writes the key into `directory` (once) and returns its path.
  static func file(in directory: TemporaryDirectory) throws -> String {
    let path = directory.path("team.key")
    if !FileManager.default.fileExists(atPath: path) {
      try Data((hex + "\n").utf8).write(to: URL(fileURLWithPath: path))
      _ = chmod(path, 0o600)
    }
    return path
  }
}
