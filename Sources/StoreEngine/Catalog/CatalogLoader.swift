import Foundation

/// Reads a `.storekit` file from disk and decodes it, turning every failure into a
/// ``CatalogLoadError`` that names the file.
public enum CatalogLoader {
  /// Loads the catalog at `path` (relative paths resolve against the current directory).
  ///
  /// - Throws: ``CatalogLoadError/fileNotFound(path:)``, ``CatalogLoadError/isDirectory(path:)``,
  ///   ``CatalogLoadError/unreadable(path:reason:)``, or ``CatalogLoadError/issues(_:)`` with every
  ///   problem in the file.
  public static func load(path: String) throws(CatalogLoadError) -> Catalog {
    let data = try read(path: path)
    return try CatalogDecoder().decode(data, path: path)
  }

  /// The bytes of the file at `path`, with the same errors as ``load(path:)``.
  public static func read(path: String) throws(CatalogLoadError) -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileNotFound(path: path)
    }
    if isDirectory.boolValue { throw .isDirectory(path: path) }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let reason: String
      if !FileManager.default.isReadableFile(atPath: path) {
        reason = "permission denied"
      } else {
        reason = (error as NSError).localizedDescription
      }
      throw .unreadable(path: path, reason: reason)
    }
  }
}
