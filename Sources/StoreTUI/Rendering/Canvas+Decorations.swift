/// Line characters for boxes and rules.
public enum BorderStyle: Sendable {
  /// `┌─┐│└┘`
  case single
  /// `╭─╮│╰╯`
  case rounded
  /// `╔═╗║╚╝`
  case double
  /// `┏━┓┃┗┛`
  case heavy

  /// Corner and edge characters: top-left, top-right, bottom-left, bottom-right, horizontal,
  /// vertical.
  public var characters:
    (
      topLeft: Character, topRight: Character, bottomLeft: Character, bottomRight: Character,
      horizontal: Character, vertical: Character
    )
  {
    switch self {
    case .single: ("┌", "┐", "└", "┘", "─", "│")
    case .rounded: ("╭", "╮", "╰", "╯", "─", "│")
    case .double: ("╔", "╗", "╚", "╝", "═", "║")
    case .heavy: ("┏", "┓", "┗", "┛", "━", "┃")
    }
  }
}

/// A clickable `[ Title ]` label.
public enum Button {
  /// The text drawn for a button: `[ Buy ]`.
  public static func label(_ title: String) -> String { "[ \(title) ]" }

  /// Columns a button takes, so layouts can place buttons (and hit-test them) without drawing.
  public static func width(_ title: String) -> Int { label(title).displayWidth }
}

extension Canvas {
  /// Draws a border around a local rectangle, with an optional title on the top edge.
  ///
  /// - Returns: the inside of the box (local coordinates), for drawing the content.
  @discardableResult
  public mutating func box(
    _ local: Rect, border: BorderStyle = .single, style: Style = .plain, title: String? = nil,
    titleStyle: Style? = nil
  ) -> Rect {
    guard local.width >= 2, local.height >= 2 else { return .zero }
    let c = border.characters
    let right = local.maxX - 1
    let bottom = local.maxY - 1
    put(c.topLeft, x: local.x, y: local.y, style: style)
    put(c.topRight, x: right, y: local.y, style: style)
    put(c.bottomLeft, x: local.x, y: bottom, style: style)
    put(c.bottomRight, x: right, y: bottom, style: style)
    horizontalRule(
      x: local.x + 1, y: local.y, width: local.width - 2, character: c.horizontal, style: style)
    horizontalRule(
      x: local.x + 1, y: bottom, width: local.width - 2, character: c.horizontal, style: style)
    verticalRule(
      x: local.x, y: local.y + 1, height: local.height - 2, character: c.vertical, style: style)
    verticalRule(
      x: right, y: local.y + 1, height: local.height - 2, character: c.vertical, style: style)
    if let title, local.width > 4 {
      text(
        " \(title) ", x: local.x + 1, y: local.y, width: local.width - 2, style: titleStyle ?? style
      )
    }
    return local.inset(by: 1)
  }

  /// Draws a horizontal line of `width` cells (default: to the region's right edge).
  public mutating func horizontalRule(
    x: Int = 0, y: Int, width: Int? = nil, character: Character = "─", style: Style = .plain
  ) {
    let count = width ?? (size.width - x)
    guard count > 0 else { return }
    for column in x..<(x + count) { put(character, x: column, y: y, style: style) }
  }

  /// Draws a vertical line of `height` cells (default: to the region's bottom edge).
  public mutating func verticalRule(
    x: Int, y: Int = 0, height: Int? = nil, character: Character = "│", style: Style = .plain
  ) {
    let count = height ?? (size.height - y)
    guard count > 0 else { return }
    for row in y..<(y + count) { put(character, x: x, y: row, style: style) }
  }

  /// Draws `[ title ]` at a local position.
  ///
  /// - Returns: the button's hit rectangle in **screen** coordinates (clipped to the region; empty
  ///   when the button is not visible), ready to compare with ``MouseEvent`` positions.
  @discardableResult
  public mutating func button(_ title: String, x: Int, y: Int, style: Style = .accent) -> Rect {
    let drawn = text(Button.label(title), x: x, y: y, style: style)
    return screenRect(Rect(x: x, y: y, width: drawn, height: 1))
  }
}
