/// One column of a ``TableLayout``.
public struct TableColumn: Hashable, Sendable {
  /// How a column's width is decided.
  public enum Width: Hashable, Sendable {
    /// Exactly this many cells.
    case fixed(Int)
    /// The widest cell (header included) among the rows given to the layout, clamped to
    /// `min...max`.
    case fit(min: Int, max: Int)
    /// Shares what is left after fixed and fit columns, in proportion to `weight`, never below
    /// `min` unless the table is too narrow for it. Long text is cut with `…`.
    case flexible(min: Int, weight: Int)

    /// A flexible column with weight 1.
    public static func flexible(min: Int = 1) -> Width { .flexible(min: min, weight: 1) }
  }

  public var title: String
  public var width: Width
  public var alignment: Canvas.Alignment

  public init(_ title: String, width: Width, alignment: Canvas.Alignment = .left) {
    self.title = title
    self.width = width
    self.alignment = alignment
  }
}

/// One table row to draw: its cell texts plus styles.
public struct TableRow: Hashable, Sendable {
  public var cells: [String]
  /// Style of the whole row, gaps included (e.g. `.reverse` for the selection).
  public var style: Style
  /// Per-cell styles (missing entries or `nil` use `style`); the row's attributes are added, so a
  /// coloured status cell stays reversed in a selected row.
  public var cellStyles: [Style?]

  public init(_ cells: [String], style: Style = .plain, cellStyles: [Style?] = []) {
    self.cells = cells
    self.style = style
    self.cellStyles = cellStyles
  }

  /// The style cell `index` is drawn with.
  public func style(ofCell index: Int) -> Style {
    TableRow.style(index < cellStyles.count ? cellStyles[index] : nil, in: style)
  }

  /// A cell's style (`nil`: the row's) inside a row drawn with `rowStyle`.
  static func style(_ cellStyle: Style?, in rowStyle: Style) -> Style {
    guard let cellStyle else { return rowStyle }
    return Style(cellStyle.attributes.union(rowStyle.attributes), color: cellStyle.color ?? rowStyle.color)
  }
}
