import Foundation

/// A `.storekit` file opened for editing: the bytes it had when it was opened (or last saved), so
/// a save can tell that someone else changed it in between and refuse rather than overwrite.
///
/// A save writes a temporary file in the same directory and renames it over the file (readers
/// see the old file or the new one, never half of one), after keeping the previous version as
/// `FILE.bak`.
public struct CatalogFile: Sendable {
  public let path: String
  /// The file's bytes as this editor last saw them on disk.
  public private(set) var bytes: [UInt8]

  /// Why a save was refused; the file is as it was.
  public enum SaveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another process changed (or removed) the file since it was opened.
    case changedOnDisk(path: String)
    /// The file can no longer be read, so whether it changed cannot be told.
    case unreadable(path: String, reason: String)
    /// The file (or its directory) is not writable.
    case readOnly(path: String)
    case writeFailed(path: String, reason: String)

    public var description: String {
      switch self {
      case .changedOnDisk(let path):
        "\(path) changed on disk since it was opened (another editor or process wrote it); nothing was written. Reload it and make the edit again."
      case .unreadable(let path, let reason):
        "\(path) can no longer be read (\(reason)); nothing was written. Check its permissions."
      case .readOnly(let path):
        "\(path) is read-only; nothing was written. Make it writable (chmod u+w) or save elsewhere."
      case .writeFailed(let path, let reason):
        "\(path) could not be written (\(reason)); the file is as it was."
      }
    }
  }

  /// Opens `path`, with ``CatalogLoader``'s errors when it cannot be read.
  public static func open(path: String) throws(CatalogLoadError) -> CatalogFile {
    CatalogFile(path: path, bytes: Array(try CatalogLoader.read(path: path)))
  }

  /// For a file about to be made (`catalog new`): there is nothing to compare with.
  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
  }

  /// The bytes on disk now, nil when the file cannot be read.
  public func current() -> [UInt8]? {
    (try? Data(contentsOf: URL(fileURLWithPath: path))).map(Array.init)
  }

  /// Whether the file on disk differs from what this editor last saw.
  public var changedOnDisk: Bool { current() != bytes }

  /// Replaces the file with `new`, refusing when it changed since it was opened.
  public mutating func save(_ new: [UInt8]) throws(SaveError) {
    let manager = FileManager.default
    guard manager.fileExists(atPath: path) else { throw .changedOnDisk(path: path) }
    // The permission bits count even for root, who could read and write the file anyway: a file
    // made read-only (or unreadable) is the user saying not to touch it.
    let mode = ((try? manager.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue ?? 0o644
    guard mode & 0o444 != 0, let onDisk = current() else {
      throw .unreadable(path: path, reason: mode & 0o444 == 0 || !manager.isReadableFile(atPath: path) ? "permission denied" : "it is not a readable file")
    }
    guard onDisk == bytes else { throw .changedOnDisk(path: path) }
    guard mode & 0o222 != 0, manager.isWritableFile(atPath: path) else { throw .readOnly(path: path) }
    try Self.write(new, to: path, keeping: onDisk)
    bytes = new
  }

  /// Writes a new file at `path`, refusing to replace one that exists.
  public static func create(_ new: [UInt8], at path: String) throws(SaveError) {
    let url = URL(fileURLWithPath: path)
    do {
      try Data(new).write(to: url, options: .withoutOverwriting)
    } catch {
      throw .writeFailed(path: path, reason: (error as NSError).localizedDescription)
    }
  }

  /// Where a save keeps the previous version of the catalog at `path`: `.FILE.bak` in its directory.
  public static func backupPath(of path: String) -> String {
    let url = URL(fileURLWithPath: path)
    return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).bak").path
  }

  /// The same as a user typed it: `path` with its last component hidden and `.bak` added.
  public static func backupName(of path: String) -> String {
    let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    return String(path[..<slash]) + "." + String(path[slash...]) + ".bak"
  }

  /// Writes `bytes` over `path` atomically after keeping `previous` at ``backupPath(of:)``; the
  /// file keeps its permissions.
  static func write(_ bytes: [UInt8], to path: String, keeping previous: [UInt8]) throws(SaveError) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    do {
      try Data(previous).write(to: URL(fileURLWithPath: backupPath(of: path)), options: .atomic)
      try Data(bytes).write(to: temporary)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw .writeFailed(path: path, reason: (error as NSError).localizedDescription)
    }
    if let mode = try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] {
      try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary.path)
    }
    guard rename(temporary.path, path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw .writeFailed(path: path, reason: reason)
    }
  }
}
