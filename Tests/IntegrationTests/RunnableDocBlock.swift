import Foundation

/// A command block of the documentation marked runnable (```` ```sh runnable ````), with the sample
/// output block that follows it, if any (```` ```text output ````). Docs/README.md describes the
/// convention; `RunnableDocsTests` runs every such block.
struct RunnableDocBlock: Equatable {
  /// The opening fence's info string for a block the tests run.
  static let runnableFence = "```sh runnable"
  /// The opening fence's info string for the output a runnable block prints.
  static let outputFence = "```text output"
  /// A placeholder matching any text (also none) within one line.
  static let anyText = "…"
  /// A line matching any number of lines (also none).
  static let anyLines = "⋮"

  /// The Markdown file's name relative to the repository root, e.g. `Docs/Server.md`.
  var file: String
  /// The 1-based line of the opening fence.
  var line: Int
  /// The commands, one script for bash.
  var script: String
  /// The lines of the sample output block; `nil` when the block has none.
  var expectedOutput: [String]?

  /// Every runnable block of `text` in order.
  static func blocks(in text: String, file: String) -> [RunnableDocBlock] {
    let lines = text.components(separatedBy: "\n")
    var blocks: [RunnableDocBlock] = []
    var index = 0
    while index < lines.count {
      guard lines[index].trimmingCharacters(in: .whitespaces) == runnableFence else {
        index += 1
        continue
      }
      let opening = index
      let (script, afterScript) = fenced(lines, from: opening + 1)
      var next = afterScript
      while next < lines.count, lines[next].trimmingCharacters(in: .whitespaces).isEmpty { next += 1 }
      var expected: [String]?
      if next < lines.count, lines[next].trimmingCharacters(in: .whitespaces) == outputFence {
        let (output, afterOutput) = fenced(lines, from: next + 1)
        expected = output
        next = afterOutput
      } else {
        next = afterScript
      }
      blocks.append(
        RunnableDocBlock(file: file, line: opening + 1, script: script.joined(separator: "\n"), expectedOutput: expected))
      index = next
    }
    return blocks
  }

  /// The lines from `start` up to the closing fence, and the index after that fence.
  private static func fenced(_ lines: [String], from start: Int) -> ([String], Int) {
    var end = start
    while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
    return (Array(lines[start..<min(end, lines.count)]), end + 1)
  }

  /// Whether `actual` (a program's output lines) matches `expected` (a sample output block's lines):
  /// line by line, trailing white space ignored, with ``anyText`` and ``anyLines`` as placeholders.
  static func output(_ actual: [String], matches expected: [String]) -> Bool {
    firstMismatch(actual, expected) == nil
  }

  /// The index of the first expected line no reading of `actual` gets past, or `nil` when it matches.
  static func firstMismatch(_ actual: [String], _ expected: [String]) -> Int? {
    let actual = actual.map(trimmedTrailing)
    let expected = expected.map(trimmedTrailing)
    var furthest = 0
    // Positions (expected, actual) still to try; the memo keeps the walk linear in their product.
    var seen = Set<[Int]>()
    var pending = [[0, 0]]
    while let position = pending.popLast() {
      let (e, a) = (position[0], position[1])
      guard seen.insert(position).inserted else { continue }
      furthest = max(furthest, e)
      if e == expected.count {
        if a == actual.count { return nil }
        continue
      }
      if expected[e] == anyLines {
        pending.append([e + 1, a])
        if a < actual.count { pending.append([e, a + 1]) }
      } else if a < actual.count, line(actual[a], matches: expected[e]) {
        pending.append([e + 1, a + 1])
      }
    }
    return min(furthest, max(expected.count - 1, 0))
  }

  /// Whether one output line matches one pattern line, where ``anyText`` stands for any text.
  static func line(_ text: String, matches pattern: String) -> Bool {
    let parts = pattern.components(separatedBy: anyText)
    guard parts.count > 1 else { return text == pattern }
    guard let first = parts.first, let last = parts.last, text.hasPrefix(first) else { return false }
    var rest = text.dropFirst(first.count)
    for middle in parts.dropFirst().dropLast() where !middle.isEmpty {
      guard let found = rest.range(of: middle) else { return false }
      rest = rest[found.upperBound...]
    }
    return rest.hasSuffix(last)
  }

  private static func trimmedTrailing(_ line: String) -> String {
    var line = Substring(line)
    while let last = line.last, last == " " || last == "\t" || last == "\r" { line = line.dropLast() }
    return String(line)
  }
}
