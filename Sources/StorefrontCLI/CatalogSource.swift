import Foundation
import StoreEngine

/// Finds and loads the catalog a command works on, and reports load failures.
enum CatalogSource {
  /// A loaded catalog and the name to show for it.
  struct Loaded {
    var catalog: Catalog
    var displayPath: String

    /// Writes what the catalog was read despite to standard error, one located warning each.
    func reportWarnings(io: any ConsoleIO) {
      for warning in catalog.warnings { io.errorLine(warning.description) }
    }
  }

  /// Loads `path`, or the built-in catalog when nil.
  static func load(_ path: String?) -> Result<Loaded, CatalogLoadError> {
    guard let path else {
      do {
        let catalog = try CatalogDecoder().decode(Data(DefaultCatalog.text.utf8), path: DefaultCatalog.displayPath)
        return .success(Loaded(catalog: catalog, displayPath: DefaultCatalog.displayPath))
      } catch {
        return .failure(error)
      }
    }
    do {
      return .success(Loaded(catalog: try CatalogLoader.load(path: path), displayPath: path))
    } catch {
      return .failure(error)
    }
  }

  /// Writes `error` to standard error with what to do, and returns its exit code: 65 for an
  /// invalid catalog, 66 for a missing, unreadable or directory path.
  static func report(_ error: CatalogLoadError, io: any ConsoleIO) -> Int32 {
    switch error {
    case .issues(let issues):
      for issue in issues { io.errorLine(issue.description) }
      let path = issues.first?.path ?? "the catalog"
      let count = issues.count == 1 ? "1 problem" : "\(issues.count) problems"
      io.errorLine("\(path): \(count); the catalog was not loaded. Fix \(issues.count == 1 ? "it" : "them") and run 'storefront catalog check \(path)' again.")
      return ExitCode.dataError
    case .fileNotFound(let path):
      var message = "Error: No catalog at '\(path)'."
      if let nearby = nearbyName(for: path) { message += " Did you mean '\(nearby)'?" }
      message += " Check the path (relative paths start at \(FileManager.default.currentDirectoryPath)), or leave it out to use the built-in catalog."
      io.errorLine(message)
      return ExitCode.noInput
    case .isDirectory(let path):
      var message = "Error: '\(path)' is a directory, not a .storekit file."
      let inside = storekitFiles(in: path)
      if inside.isEmpty {
        message += " It holds no .storekit file; pass the path of one."
      } else {
        let joined = inside.prefix(5).map { (path as NSString).appendingPathComponent($0) }.map { "'\($0)'" }.joined(separator: ", ")
        message += " Pass a file inside it, e.g. \(joined)."
      }
      io.errorLine(message)
      return ExitCode.noInput
    case .unreadable(let path, let reason):
      io.errorLine("Error: Cannot read '\(path)': \(reason). Check the file's permissions (ls -l '\(path)').")
      return ExitCode.noInput
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
