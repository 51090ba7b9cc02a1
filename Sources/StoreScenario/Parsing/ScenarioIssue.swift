import StoreEngine

/// A problem in a scenario file, located by line and column (1-based).
public struct ScenarioIssue: Error, Sendable, Equatable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var message: String

  public init(line: Int, column: Int, message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  public var description: String { "\(line):\(column): \(message)" }
}

/// A word of a scenario line with the column it starts at.
struct ScenarioToken: Sendable, Equatable {
  var text: String
  var column: Int

  /// Splits a line into words; `"…"` groups spaces, `#` outside quotes starts a comment.
  static func tokenize(_ line: Substring) -> Result<[ScenarioToken], ScenarioIssue> {
    var tokens: [ScenarioToken] = []
    var current = ""
    var start = 0
    var inQuotes = false
    var quoteColumn = 0
    var column = 0
    for character in line {
      column += 1
      if inQuotes {
        if character == "\"" { inQuotes = false } else { current.append(character) }
        continue
      }
      if character == "#" { break }
      if character == "\"" {
        if current.isEmpty { start = column }
        inQuotes = true
        quoteColumn = column
        continue
      }
      if character.isWhitespace {
        if !current.isEmpty { tokens.append(ScenarioToken(text: current, column: start)) }
        current = ""
        continue
      }
      if current.isEmpty { start = column }
      current.append(character)
    }
    if inQuotes {
      return .failure(ScenarioIssue(line: 0, column: quoteColumn, message: "Unterminated quote; close it with \"."))
    }
    if !current.isEmpty { tokens.append(ScenarioToken(text: current, column: start)) }
    return .success(tokens)
  }
}

/// The closest candidate to `word`, if it is close enough to be a likely typo.
func suggestion(for word: String, in candidates: [String]) -> String? {
  NearMatch.closest(to: word, in: candidates)
}
