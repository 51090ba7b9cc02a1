import StoreEngine

/// Every key the storefront understands, in one table: the help overlay and the hint bar read it,
/// so what is documented is what is bound.
public enum KeyBindings {
  /// One documented key (or key group).
  public struct Entry: Equatable, Sendable {
    public var keys: String
    public var action: String
  }

  /// Help sections: a title and its keys.
  public static let sections: [(title: String, entries: [Entry])] = [
    ("Everywhere", [
      Entry(keys: "↑ ↓  k j", action: "move the selection"),
      Entry(keys: "PgUp PgDn Home End", action: "scroll a page / to the top / to the end"),
      Entry(keys: "Tab  Shift-Tab", action: "next / previous pane"),
      Entry(keys: "1 2 3 4", action: "Store, Transactions, Settings, Log"),
      Entry(keys: "r", action: "restore purchases"),
      Entry(keys: "i", action: "sign in / switch sandbox account"),
      Entry(keys: "+", action: "advance the clock one hour"),
      Entry(keys: "]", action: "advance the clock one day"),
      Entry(keys: "}", action: "advance the clock 30 days"),
      Entry(keys: "L", action: "relaunch the app (unfinished transactions return)"),
      Entry(keys: "?", action: "this help"),
      Entry(keys: "q", action: "quit (asks first while a purchase is in flight)"),
    ]),
    ("Store", [
      Entry(keys: "Enter  b", action: "buy the selected product"),
    ]),
    ("Transactions", [
      Entry(keys: "f", action: "finish the selected transaction"),
      Entry(keys: "a  d", action: "approve / decline Ask to Buy"),
      Entry(keys: "R", action: "resolve an interrupted purchase or billing issue"),
      Entry(keys: "x", action: "refund"),
      Entry(keys: "Enter  v", action: "view the signed transaction (JWS)"),
      Entry(keys: "e", action: "export the JWS to a file"),
      Entry(keys: "A", action: "toggle auto-renew"),
      Entry(keys: "E", action: "expire the subscription now"),
      Entry(keys: "N", action: "renew the subscription now"),
    ]),
    ("Settings", [
      Entry(keys: "Enter  Space  →", action: "toggle or next value"),
      Entry(keys: "←", action: "previous value"),
    ]),
    ("Log", [
      Entry(keys: "←  →", action: "scroll long lines left / right"),
    ]),
    ("Sheets", [
      Entry(keys: "Enter  y", action: "confirm (Buy, Sign In, OK)"),
      Entry(keys: "Esc  n", action: "cancel (n types a letter in text fields)"),
      Entry(keys: "Tab", action: "next field"),
    ]),
    ("Mouse", [
      Entry(keys: "click", action: "Buy and Restore buttons, tabs, sheet buttons, rows"),
      Entry(keys: "wheel", action: "scroll"),
    ]),
  ]

  /// The one-line hint for the bottom bar.
  public static func hint(for pane: Pane) -> String {
    switch pane {
    case .store: "↑↓ move  Enter buy  r restore  Tab pane  + ] clock  ? help  q quit"
    case .transactions: "f finish  a/d approve/decline  R resolve  x refund  v view  e export  ? help"
    case .settings: "↑↓ move  Enter/←→ change  Tab pane  ? help  q quit"
    case .log: "↑↓ PgUp/PgDn scroll  ←→ pan  End follow  Tab pane  ? help  q quit"
    }
  }

  /// The help overlay's lines.
  public static var helpLines: [String] {
    var lines: [String] = []
    for (index, section) in sections.enumerated() {
      if index > 0 { lines.append("") }
      lines.append(section.title)
      for entry in section.entries {
        lines.append("  " + entry.keys.padded(toWidth: 20) + entry.action)
      }
    }
    return lines
  }
}
