/// A key press or terminal input event, independent of the terminal library.
public enum Key: Hashable, Sendable {
  /// A printable character (letters, digits, punctuation, CJK…).
  case char(Character)
  case up
  case down
  case left
  case right
  case pageUp
  case pageDown
  case home
  case end
  case enter
  case tab
  /// Shift-Tab.
  case backTab
  case escape
  case backspace
  case delete
  /// F1…F12 as `function(1)`…`function(12)`.
  case function(Int)
  /// Control plus a lowercase letter: Ctrl-A is `ctrl("a")`.
  case ctrl(Character)
  case mouse(MouseEvent)
  /// The terminal changed size; read the new size from the ``Terminal``.
  case resize
}

/// A mouse report in screen cells (0-based, like ``Rect``).
public struct MouseEvent: Hashable, Sendable {
  /// What happened. Act on ``click`` for buttons: some terminals (and ncurses with fast clicks)
  /// report only a release, which adapters turn into a click.
  public enum Kind: Hashable, Sendable {
    case press
    /// A button came up away from where it went down (the end of a drag).
    case release
    /// A completed left click.
    case click
    case wheelUp
    case wheelDown
  }

  public var x: Int
  public var y: Int
  public var kind: Kind

  public init(x: Int, y: Int, kind: Kind) {
    self.x = x
    self.y = y
    self.kind = kind
  }

  /// The position as a ``Point``.
  public var point: Point { Point(x: x, y: y) }
}

extension Key: CustomStringConvertible {
  /// A short label for help screens and logs: `↑`, `PgDn`, `Ctrl-C`, `F5`, `q`.
  public var description: String {
    switch self {
    case .char(" "): "Space"
    case .char(let character): String(character)
    case .up: "↑"
    case .down: "↓"
    case .left: "←"
    case .right: "→"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .home: "Home"
    case .end: "End"
    case .enter: "Enter"
    case .tab: "Tab"
    case .backTab: "Shift-Tab"
    case .escape: "Esc"
    case .backspace: "Backspace"
    case .delete: "Del"
    case .function(let number): "F\(number)"
    case .ctrl(let character): "Ctrl-\(character.uppercased())"
    case .mouse(let event): "mouse \(event.kind) at \(event.x),\(event.y)"
    case .resize: "resize"
    }
  }
}
