import Foundation
import StoreEngine
import StoreTUI

/// Finds and loads the catalog a command works on, and reports load failures.
enum CatalogSource {
  /// A loaded catalog and the name to show for it.
  struct Loaded {
    var catalog: Catalog
    var displayPath: String
    /// ``AppRuntime/catalogContentHash(_:)`` of the file's bytes, when asked for.
    var contentHash: Int?

    /// Writes what the catalog was read despite to standard error, one located warning each.
    func reportWarnings(io: any ConsoleIO) {
      for warning in catalog.warnings { io.errorLine(warning.description) }
    }
  }

  /// Loads `path`, or the built-in catalog when nil; `hashing`: with the file's ``Loaded/contentHash``.
  static func load(_ path: String?, hashing: Bool = false) -> Result<Loaded, CatalogLoadError> {
    guard let path else {
      do {
        let catalog = try CatalogDecoder().decode(Data(DefaultCatalog.text.utf8), path: DefaultCatalog.displayPath)
        return .success(Loaded(catalog: catalog, displayPath: DefaultCatalog.displayPath))
      } catch {
        return .failure(error)
      }
    }
    do {
      guard hashing else { return .success(Loaded(catalog: try CatalogLoader.load(path: path), displayPath: path)) }
      let data = try CatalogLoader.read(path: path)
      let catalog = try CatalogDecoder().decode(data, path: path)
      return .success(Loaded(catalog: catalog, displayPath: path, contentHash: data.withUnsafeBytes(AppRuntime.catalogContentHash)))
    } catch {
      return .failure(error)
    }
  }

  /// What to throw for `error`: an invalid catalog's located problems are written here (65, nothing
  /// more to say); a missing, unreadable or directory path is a message with what to do (66).
  /// - Parameter pathRequired: the command needs a path (`catalog check`): the hint is not to leave it out.
  static func failure(_ error: CatalogLoadError, io: any ConsoleIO, pathRequired: Bool = false) -> CLIFailure {
    switch error {
    case .issues(let issues):
      for issue in issues { io.errorLine(issue.description) }
      let path = issues.first?.path ?? "the catalog"
      let count = issues.count == 1 ? "1 problem" : "\(issues.count) problems"
      io.errorLine("\(path): \(count); the catalog was not loaded. Fix \(issues.count == 1 ? "it" : "them") and run 'storefront catalog check \(path)' again.")
      return .reported(.dataError)
    case .fileNotFound(let path):
      var message = "No catalog at '\(path)'."
      if let nearby = nearbyName(for: path) { message += " Did you mean '\(nearby)'?" }
      message += " Check the path (relative paths start at \(FileManager.default.currentDirectoryPath))"
      message += pathRequired ? "." : ", or leave it out to use the built-in catalog."
      return CLIFailure(message, .noInput)
    case .isDirectory(let path):
      var message = "'\(path)' is a directory, not a .storekit file."
      let inside = storekitFiles(in: path)
      if inside.isEmpty {
        message += " It holds no .storekit file; pass the path of one."
      } else {
        let joined = inside.prefix(5).map { (path as NSString).appendingPathComponent($0) }.map { "'\($0)'" }.joined(separator: ", ")
        message += " Pass a file inside it, e.g. \(joined)."
      }
      return CLIFailure(message, .noInput)
    case .unreadable(let path, let reason):
      return CLIFailure("Cannot read '\(path)': \(reason). Check the file's permissions (ls -l '\(path)').", .noInput)
    }
  }

  private static func storekitFiles(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".storekit") }.sorted()
  }

  /// A file next to a missing `path` whose name is one typo away.
  private static func nearbyName(for path: String) -> String? {
    let directory = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
    return NearMatch.closest(to: name, in: entries.sorted()).map { directory.isEmpty ? $0 : (directory as NSString).appendingPathComponent($0) }
  }
}
