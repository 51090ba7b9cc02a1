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
