/// A size in terminal cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// Columns.
  public var width: Int
  /// Rows.
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// A size with no cells.
  public static let zero = Size(width: 0, height: 0)

  /// Whether the size holds no cell.
  public var isEmpty: Bool { width <= 0 || height <= 0 }

  /// Whether both dimensions are at least those of `other` (for "terminal too small" checks).
  public func fits(_ other: Size) -> Bool { width >= other.width && height >= other.height }

  /// `80x24`.
  public var description: String { "\(width)x\(height)" }
}

/// A cell position: column `x`, row `y`, both zero-based.
public struct Point: Hashable, Sendable {
  public var x: Int
  public var y: Int

  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }
}

/// A rectangle of cells. Edges are half-open: `x ..< x + width`, `y ..< y + height`.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// The rectangle at the origin covering `size`.
  public init(size: Size) {
    self.init(x: 0, y: 0, width: size.width, height: size.height)
  }

  /// A rectangle with no cells.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  public var minX: Int { x }
  public var minY: Int { y }
  /// One past the last column.
  public var maxX: Int { x + width }
  /// One past the last row.
  public var maxY: Int { y + height }
  public var size: Size { Size(width: width, height: height) }
  public var isEmpty: Bool { width == 0 || height == 0 }

  /// Whether the cell at (`x`, `y`) lies inside (mouse hit testing).
  public func contains(x px: Int, y py: Int) -> Bool {
    px >= x && px < maxX && py >= y && py < maxY
  }

  /// Whether `point` lies inside.
  public func contains(_ point: Point) -> Bool { contains(x: point.x, y: point.y) }

  /// The overlap of two rectangles; empty (at `self`'s origin) when they do not overlap.
  public func intersection(_ other: Rect) -> Rect {
    let left = max(x, other.x)
    let top = max(y, other.y)
    let right = min(maxX, other.maxX)
    let bottom = min(maxY, other.maxY)
    guard right > left, bottom > top else { return Rect(x: left, y: top, width: 0, height: 0) }
    return Rect(x: left, y: top, width: right - left, height: bottom - top)
  }

  /// The rectangle shrunk by the given margins on each side (never negative).
  public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
    Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
  }

  /// The rectangle shrunk by `amount` on all four sides.
  public func inset(by amount: Int) -> Rect {
    inset(top: amount, left: amount, bottom: amount, right: amount)
  }

  /// The rectangle moved by (`dx`, `dy`).
  public func offsetBy(dx: Int, dy: Int) -> Rect {
    Rect(x: x + dx, y: y + dy, width: width, height: height)
  }

  /// Splits off the top `rows` rows: `(top, rest)`. Clamped to the height.
  public func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
    let cut = min(max(0, rows), height)
    return (
      Rect(x: x, y: y, width: width, height: cut),
      Rect(x: x, y: y + cut, width: width, height: height - cut)
    )
  }

  /// Splits off the bottom `rows` rows: `(rest, bottom)`. Clamped to the height.
  public func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
    let cut = min(max(0, rows), height)
    return (
      Rect(x: x, y: y, width: width, height: height - cut),
      Rect(x: x, y: maxY - cut, width: width, height: cut)
    )
  }

  /// `(x,y wxh)`.
  public var description: String { "(\(x),\(y) \(width)x\(height))" }
}
