/// The storefront's panes, in tab order: Tab and Shift-Tab cycle through them, each ``shortcut``
/// digit jumps to one (``KeyBindings`` binds the digits from `allCases`).
public enum Pane: Int, CaseIterable, Hashable, Sendable {
  case store
  case transactions
  case settings
  case log

  /// The tab title.
  public var title: String {
    switch self {
    case .store: "Store"
    case .transactions: "Transactions"
    case .settings: "Settings"
    case .log: "Log"
    }
  }

  /// The digit that jumps to this pane.
  public var shortcut: Character {
    switch self {
    case .store: "1"
    case .transactions: "2"
    case .settings: "3"
    case .log: "4"
    }
  }

  /// The pane after this one, wrapping around.
  public var next: Pane { Pane(rawValue: (rawValue + 1) % Pane.allCases.count) ?? .store }
  /// The pane before this one, wrapping around.
  public var previous: Pane {
    Pane(rawValue: (rawValue + Pane.allCases.count - 1) % Pane.allCases.count) ?? .store
  }
}

/// The selection and scroll position of one list.
public struct PaneScroll: Equatable, Sendable {
  /// The selected row index.
  public var selection: Int
  /// The topmost visible row index.
  public var firstRow: Int

  public init(selection: Int = 0, firstRow: Int = 0) {
    self.selection = selection
    self.firstRow = firstRow
  }
}
