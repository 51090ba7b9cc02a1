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

/// Edit distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.count]
}

/// The closest candidate to `word`, if it is close enough to be a likely typo.
func suggestion(for word: String, in candidates: [String]) -> String? {
  let allowed = max(2, word.count / 3)
  // A length difference above `allowed` already rules a candidate out; skipping it keeps a huge
  // word (a 2 MB line) from costing seconds of edit-distance work per candidate.
  let best = candidates.filter { abs($0.count - word.count) <= allowed }
    .map { ($0, editDistance(word.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
  guard let (candidate, distance) = best, distance <= allowed else { return nil }
  return candidate
}
