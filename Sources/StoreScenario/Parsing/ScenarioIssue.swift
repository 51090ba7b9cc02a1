/// A problem in a scenario file, located by line and column (1-based).
public struct ScenarioIssue: Error, Sendable, Equatable, CustomStringConvertible {
  /// 1-based line of the file.
  public var line: Int
  /// 1-based column (in characters): where the offending word starts, or just past the line's
  /// last word when one is missing.
  public var column: Int
  /// What is wrong and how to fix it, as one or two sentences.
  public var message: String

  /// An issue at `line`:`column`.
  public init(line: Int, column: Int, message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  /// `line:column: message`, the form `storefront run` prints after the file name.
  public var description: String { "\(line):\(column): \(message)" }
}
