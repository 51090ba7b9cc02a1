import Foundation
import StoreTUI
import Testing

/// The key table of Docs/TUI.md lists exactly the keys of ``KeyBindings``, scope by scope, so it
/// cannot drift from what is bound.
///
/// A row's first cell names its keys in backticks (`` `↑ ↓` `k j` ``: one key per word). A row that
/// starts with `Store:`, `Transactions:`, `Settings:` or `Log:` (a pane's title) documents that
/// pane; `Sheets:` documents the sheets (every ``SheetKind`` together); any other row documents
/// keys that work everywhere.
@Suite struct DocsKeyTableTests {
  /// Docs/TUI.md in the repository: the root is two folders above this file's folder.
  static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Docs/TUI.md")

  /// The key table's sections, as the test groups scopes.
  enum Section: Hashable, CustomStringConvertible {
    case everywhere
    case pane(Pane)
    case sheets

    init(_ scope: KeyScope) {
      switch scope {
      case .global: self = .everywhere
      case .pane(let pane): self = .pane(pane)
      case .sheet: self = .sheets
      }
    }

    /// The section a row's prefix (`Transactions:`) names; `nil` for an unknown one.
    init?(prefix: String?) {
      guard let prefix else {
        self = .everywhere
        return
      }
      if prefix == "Sheets" {
        self = .sheets
      } else if let pane = Pane.allCases.first(where: { $0.title == prefix }) {
        self = .pane(pane)
      } else {
        return nil
      }
    }

    var description: String {
      switch self {
      case .everywhere: "everywhere"
      case .pane(let pane): pane.title
      case .sheets: "Sheets"
      }
    }
  }

  @Test func theTUIPageDocumentsExactlyTheBoundKeys() throws {
    let text = try String(contentsOf: Self.page, encoding: .utf8)
    let rows = try #require(Self.keyTableRows(text), "Docs/TUI.md has no '| key | action |' table")
    var documented: [Section: Set<String>] = [:]
    for row in rows {
      let (prefix, keys) = Self.parse(keyCell: row)
      guard let section = Section(prefix: prefix) else {
        Issue.record("Docs/TUI.md key table row '\(row)' starts with '\(prefix ?? "")', which is no pane and not 'Sheets'")
        continue
      }
      documented[section, default: []].formUnion(keys)
    }
    var bound: [Section: Set<String>] = [:]
    for binding in KeyBindings.all {
      bound[Section(binding.scope), default: []].formUnion(binding.allKeys.map(\.description))
    }
    for section in Set(bound.keys).union(documented.keys) {
      let keys = bound[section] ?? []
      let page = documented[section] ?? []
      #expect(keys.subtracting(page).isEmpty, "bound \(section) but not in Docs/TUI.md: \(keys.subtracting(page).sorted())")
      #expect(page.subtracting(keys).isEmpty, "in Docs/TUI.md for \(section) but not bound: \(page.subtracting(keys).sorted())")
    }
  }

  @Test func theParserReadsPrefixesAndEveryWordInBackticks() {
    let (prefix, keys) = Self.parse(keyCell: " Transactions: `v` (or `Enter`), `PgUp PgDn` ")
    #expect(prefix == "Transactions")
    #expect(keys == ["v", "Enter", "PgUp", "PgDn"])
    #expect(Self.parse(keyCell: "`Enter`/`y`").prefix == nil)
    let table = "intro\n\n| key | action |\n|---|---|\n| `q` | quit |\n| `?` | help |\n\nafter | `x` |"
    #expect(Self.keyTableRows(table) == [" `q` ", " `?` "])
  }

  /// The first cells of the key table's rows (after `| key | action |` and its `|---|` line).
  static func keyTableRows(_ text: String) -> [String]? {
    let lines = text.components(separatedBy: "\n")
    guard let header = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "| key | action |" })
    else { return nil }
    return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.compactMap { line in
      line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
    }
  }

  /// A key cell's `Pane:` prefix (if any) and the words inside its backticks.
  static func parse(keyCell cell: String) -> (prefix: String?, keys: [String]) {
    let trimmed = cell.trimmingCharacters(in: .whitespaces)
    var prefix: String?
    if let colon = trimmed.firstIndex(of: ":"), !trimmed[..<colon].contains("`") {
      prefix = String(trimmed[..<colon])
    }
    let quoted = trimmed.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map(\.element)
    return (prefix, quoted.flatMap { $0.split(separator: " ").map(String.init) })
  }
}
