extension KeyBindings {
  /// One row of the help overlay: keys and what they do.
  public struct HelpRow: Equatable, Sendable {
    /// The keys as the help shows them, e.g. `↑ ↓  k j`.
    public var keys: String
    /// What they do.
    public var action: String
  }

  /// The help overlay's sections, one per scope (``KeyScope/allCases`` order), then the mouse.
  ///
  /// Neighbouring bindings of a scope with the same help text share a row; their keys are listed
  /// position by position (`↑ ↓  k j`: the first keys, then the alternates).
  public static let helpSections: [(title: String, rows: [HelpRow])] =
    KeyScope.allCases.map { scope in (scope.title, rows(in: scope)) } + [("Mouse", mouseRows)]

  /// The help overlay's lines.
  public static let helpLines: [String] = {
    let width = helpSections.flatMap(\.rows).map(\.keys.displayWidth).max().map { max(20, $0 + 2) } ?? 20
    var lines: [String] = []
    for (index, section) in helpSections.enumerated() {
      if index > 0 { lines.append("") }
      lines.append(section.title)
      for row in section.rows {
        lines.append("  " + row.keys.padded(toWidth: width) + row.action)
      }
    }
    return lines
  }()

  /// What the mouse does: it is hit-tested against the layout, so it is not in the key table.
  static let mouseRows = [
    HelpRow(keys: "click", action: "Buy and Restore, tabs, sheet buttons, rows"),
    HelpRow(keys: "wheel", action: "scroll"),
  ]

  private static func rows(in scope: KeyScope) -> [HelpRow] {
    var groups: [[KeyBinding]] = []
    for binding in all where binding.scope == scope {
      if let last = groups.last?.last, last.help == binding.help {
        groups[groups.count - 1].append(binding)
      } else {
        groups.append([binding])
      }
    }
    var rows = groups.map { group in HelpRow(keys: label(group), action: group[0].help) }
    if case .sheet(let kind) = scope, kind.acceptsText {
      rows.append(HelpRow(keys: "other keys", action: "type into the field"))
    }
    return rows
  }

  /// `Enter  b` for one binding; `↑ ↓  k j` for several: each binding's first keys, then its second…
  private static func label(_ group: [KeyBinding]) -> String {
    if group.count == 1 { return group[0].allKeys.map(\.description).joined(separator: "  ") }
    let depth = group.map(\.allKeys.count).max() ?? 0
    return (0..<depth).map { position in
      group.compactMap { $0.allKeys.indices.contains(position) ? $0.allKeys[position].description : nil }
        .joined(separator: " ")
    }.joined(separator: "  ")
  }
}
