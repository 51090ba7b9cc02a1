/// The storefront's panes, in tab order: Tab and Shift-Tab cycle through them, each ``shortcut``
/// digit jumps to one (``KeyBindings`` binds the digits from `allCases`).
public enum Pane: Int, CaseIterable, Hashable, Sendable {
  case store
  case transactions
  case settings
  case log
  /// The in-process App Store Server API's requests; only with `--serve` (``AppState/panes``).
  case server
  /// The `.storekit` file as a tree, edited in place (issue 26).
  case catalog

  /// The panes every session has (the Server pane needs `--serve`).
  public static let standard: [Pane] = [.store, .transactions, .settings, .log, .catalog]

  /// The tab title.
  public var title: String {
    switch self {
    case .store: "Store"
    case .transactions: "Transactions"
    case .settings: "Settings"
    case .log: "Log"
    case .server: "Server"
    case .catalog: "Catalog"
    }
  }

  /// The digit that jumps to this pane.
  public var shortcut: Character {
    switch self {
    case .store: "1"
    case .transactions: "2"
    case .settings: "3"
    case .log: "4"
    case .server: "5"
    case .catalog: "6"
    }
  }

  /// The pane after this one among `panes`, wrapping around.
  public func next(in panes: [Pane]) -> Pane {
    guard let index = panes.firstIndex(of: self) else { return panes.first ?? .store }
    return panes[(index + 1) % panes.count]
  }

  /// The pane before this one among `panes`, wrapping around.
  public func previous(in panes: [Pane]) -> Pane {
    guard let index = panes.firstIndex(of: self) else { return panes.first ?? .store }
    return panes[(index + panes.count - 1) % panes.count]
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
