import Foundation

/// Writes files only their owner can read (mode 0600 from the first byte), replacing atomically.
enum PrivateFile {
  static func write(_ data: Data, to url: URL) throws(APIKeyStoreError) {
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw .unwritable(path: url.path, reason: String(cString: strerror(errno))) }
    let written = data.withUnsafeBytes { raw in raw.baseAddress.map { Foundation.write(descriptor, $0, raw.count) } ?? 0 }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == data.count, synced, rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary.path)
      throw .unwritable(path: url.path, reason: reason)
    }
  }

  /// Creates `url` (and its parents) as a directory only its owner can enter.
  static func makeDirectory(_ url: URL) throws(APIKeyStoreError) {
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .unwritable(path: url.path, reason: error.localizedDescription)
    }
  }
}
