import Foundation

/// Decodes Xcode `.storekit` files (formats 1.0–6.x) into a ``Catalog``, or reports every problem.
///
/// Values come from Foundation's `JSONDecoder` (see ``JSONValue``); the decoder then walks the
/// tree leniently: unknown keys are ignored, optional keys may be missing, a `null` introductory
/// offer is fine. Problems are collected, not thrown one at a time, and each is located by line and
/// column only after the walk, so a valid file never pays for locating.
///
/// ```swift
/// let catalog = try CatalogDecoder().decode(data, path: "Store.storekit")
/// ```
public struct CatalogDecoder: Sendable {
  /// The oldest and newest format versions this decoder reads without a warning. A later minor
  /// version of the newest major one (6.4) loads with a warning; a later major one is refused.
  public static let supportedVersions = Catalog.FormatVersion(major: 1, minor: 0)...newestKnownVersion

  /// The newest format whose keys this decoder knows: Xcode 27's 6.3 (bundle and suite groups).
  public static let newestKnownVersion = Catalog.FormatVersion(major: 6, minor: 3)

  public init() {}

  /// Decodes the bytes of a `.storekit` file.
  ///
  /// - Parameters:
  ///   - data: The file's contents.
  ///   - path: The file as the user named it, used in every ``CatalogIssue``.
  /// - Returns: The catalog, with ``Catalog/warnings`` for what it was read despite.
  /// - Throws: ``CatalogLoadError/issues(_:)`` with every problem found, in file order.
  public func decode(_ data: Data, path: String) throws(CatalogLoadError) -> Catalog {
    let root: JSONValue
    if let decoded = try? JSONDecoder().decode(StoreKitJSON.self, from: data) {
      root = decoded.root
    } else {
      // JSONDecoder's errors do not say where the mistake is; JSONSerialization's do, and the
      // diagnosis builds on them. A file only JSONSerialization accepts is read from its tree.
      do {
        root = JSONValue(foundation: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
      } catch {
        throw .issues([syntaxIssue(in: data, path: path, foundationError: error)])
      }
    }
    var walker = CatalogWalker()
    let catalog = walker.catalog(from: root)
    guard walker.issues.isEmpty, var catalog else {
      throw .issues(locate(walker.issues, in: data, path: path))
    }
    if !walker.warnings.isEmpty {
      catalog.warnings = locate(walker.warnings, in: data, path: path).map { warning in
        var warning = warning
        warning.severity = .warning
        return warning
      }
    }
    return catalog
  }

  // MARK: - Locating

  private func locate(_ pending: [CatalogWalker.PendingIssue], in data: Data, path: String) -> [CatalogIssue] {
    let locator = JSONSourceLocator([UInt8](data))
    let offsets = locator.valueOffsets()
    func offset(of jsonPath: JSONPath) -> Int {
      var components = jsonPath.components
      while true {
        if let offset = offsets[JSONPath(components)] { return offset }
        if components.isEmpty { return 0 }
        components.removeLast()
      }
    }
    let located = pending.map { issue -> (offset: Int, issue: CatalogIssue) in
      let start = offset(of: issue.path)
      let (line, column) = locator.position(of: start)
      var message = issue.path.components.isEmpty ? issue.message : "\(issue.path): \(issue.message)"
      if let related = issue.related {
        message += " (first at line \(locator.position(of: offset(of: related)).line))"
      }
      return (start, CatalogIssue(path: path, line: line, column: column, message: message, hint: issue.hint))
    }
    // Stable sort: issues at the same place keep the order the walk found them in.
    return located.enumerated()
      .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
      .map(\.element.issue)
  }

  private func syntaxIssue(in data: Data, path: String, foundationError: any Error) -> CatalogIssue {
    let bytes = [UInt8](data)
    let locator = JSONSourceLocator(bytes)
    func issue(at offset: Int, _ message: String, _ hint: String) -> CatalogIssue {
      let (line, column) = locator.position(of: offset)
      return CatalogIssue(path: path, line: line, column: column, message: message, hint: hint)
    }
    if bytes.allSatisfy(JSONSourceLocator.isWhitespace) {
      return issue(
        at: 0, "the file is empty",
        "a .storekit file is the JSON that Xcode writes; start from Catalog/Default.storekit or create one in Xcode (File > New > File > StoreKit Configuration File)")
    }
    if let bad = JSONSourceLocator.firstInvalidUTF8Offset(in: bytes) {
      let hex = String(bytes[bad], radix: 16, uppercase: true)
      return issue(
        at: bad, "invalid UTF-8: byte 0x\(hex.count == 1 ? "0" + hex : hex) cannot start or continue a character",
        "save the file as UTF-8 (it may have been saved as Latin-1 or UTF-16), or retype the character here")
    }
    let description = (foundationError as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(foundationError)"
    let foundationOffset = Self.characterOffset(in: description)
    if let problem = JSONSyntaxDiagnosis.firstProblem(in: bytes, locator: locator),
      problem.offset <= (foundationOffset ?? Int.max)
    {
      return issue(at: problem.offset, problem.message, problem.hint)
    }
    return issue(
      at: foundationOffset ?? bytes.count, "malformed JSON: \(description)",
      "fix the JSON syntax here; re-saving the file from Xcode shows the same place")
  }

  /// The byte offset in Foundation's "… around character 14." messages.
  static func characterOffset(in description: String) -> Int? {
    guard let range = description.range(of: "character ") else { return nil }
    let digits = description[range.upperBound...].prefix { $0.isNumber }
    return Int(digits)
  }
}
