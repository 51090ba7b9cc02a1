/// One problem found in a `.storekit` file, located by line and column, with a way to fix it.
///
/// ```
/// Store.storekit:14:23: products[2].displayPrice: '1.000,5' is not a price
///   hint: write "1000.5": a dot for decimals and no grouping
/// Store.storekit:9:23: warning: products[0].displayPrice: '2,99' has a decimal comma; read as 2.99
///   hint: write "2.99"
/// ```
public struct CatalogIssue: Sendable, Equatable, CustomStringConvertible {
  /// Whether the catalog still loads.
  public enum Severity: String, Sendable, Equatable {
    /// The file is refused.
    case error
    /// The file loads, read as the message says (``Catalog/warnings``).
    case warning
  }

  /// The file as the user named it.
  public var path: String
  /// 1-based line.
  public var line: Int
  /// 1-based column, counted in Unicode scalars (what editors show for UTF-8 text).
  public var column: Int
  /// What is wrong, naming the JSON path and the value.
  public var message: String
  /// How to fix it.
  public var hint: String
  public var severity: Severity

  public init(path: String, line: Int, column: Int, message: String, hint: String, severity: Severity = .error) {
    self.path = path
    self.line = line
    self.column = column
    self.message = message
    self.hint = hint
    self.severity = severity
  }

  /// `path:line:column: message` (`path:line:column: warning: message` for a warning), the first
  /// line of ``description``.
  public var located: String {
    "\(path):\(line):\(column): \(severity == .warning ? "warning: " : "")\(message)"
  }

  /// The located message and, on a second line, the hint.
  public var description: String {
    hint.isEmpty ? located : "\(located)\n  hint: \(hint)"
  }
}

/// Why a catalog could not be loaded.
public enum CatalogLoadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file was read but is not a valid catalog; every problem found, in file order.
  case issues([CatalogIssue])
  /// Nothing exists at `path`.
  case fileNotFound(path: String)
  /// `path` exists but could not be read (permissions, I/O error).
  case unreadable(path: String, reason: String)
  /// `path` is a directory, not a `.storekit` file.
  case isDirectory(path: String)

  /// User-facing text: every issue on its own lines, or one sentence that names the file and says
  /// what to do.
  public var description: String {
    switch self {
    case .issues(let issues):
      return issues.map(\.description).joined(separator: "\n")
    case .fileNotFound(let path):
      return "No catalog at '\(path)'. Check the path, or leave out the path to use the built-in catalog."
    case .unreadable(let path, let reason):
      return "Cannot read '\(path)': \(reason). Check the file's permissions."
    case .isDirectory(let path):
      return "'\(path)' is a directory, not a .storekit file. Pass the .storekit file inside it."
    }
  }
}
